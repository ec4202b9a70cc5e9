/**
 * The archive's objects in a local run's folder (adapter of the archive's `ObjectStore`): key
 * `dataset/…` is the file `DIR/dataset/…`, so one query reads a local run and a downloaded archive
 * alike. A file is written under a temporary name and renamed, so a reader never sees half of one.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { ObjectStore } from "../../shared/archive/ports";

export class FolderObjectStore implements ObjectStore {
  /** Local runs write no symlink lists: DuckDB, Spark and Trino read the Parquet folders directly. */
  readonly athena = false;
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = resolve(dataDir);
  }

  private path(key: string): string {
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error(`key ${key} leaves ${this.root}`);
    return p;
  }

  async put(key: string, parts: readonly Uint8Array[]): Promise<void> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    const tmp = `${p}.tmp-${process.pid}`;
    await writeFile(tmp, parts);
    await rename(tmp, p);
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return new Uint8Array(await readFile(this.path(key)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const dir = this.path(prefix.endsWith("/") ? prefix : dirname(prefix));
    let entries: { name: string; parentPath: string; isFile(): boolean }[];
    try {
      entries = await readdir(dir, { recursive: true, withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    // A crashed put's temporary file is listed too: the next run of the day deletes it.
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(this.root, join(e.parentPath, e.name)).split(sep).join("/"))
      .filter((k) => k.startsWith(prefix));
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (const k of keys) await rm(this.path(k), { force: true });
  }

  uri(key: string): string {
    return this.path(key);
  }
}
