/**
 * Checkpoints of a local import, one small JSON file per WARC file in the data directory. A checkpoint
 * belongs to the file's path, size and modification time: a file that changed starts over.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { WarcCheckpoint } from "./import-warc";

interface Stored {
  readonly file: string;
  readonly size: number;
  readonly mtime_ms: number;
  readonly checkpoint: WarcCheckpoint;
}

export class CheckpointFiles {
  constructor(private readonly dir: string) {}

  private pathFor(file: string): string {
    const id = createHash("sha256").update(path.resolve(file)).digest("hex").slice(0, 32);
    return path.join(this.dir, `${id}.json`);
  }

  load(file: string): WarcCheckpoint | null {
    let stored: Stored;
    try {
      stored = JSON.parse(readFileSync(this.pathFor(file), "utf8")) as Stored;
    } catch {
      return null;
    }
    const stat = statSync(file);
    const same =
      stored.file === path.resolve(file) && stored.size === stat.size && stored.mtime_ms === stat.mtimeMs;
    return same ? stored.checkpoint : null;
  }

  save(file: string, checkpoint: WarcCheckpoint): void {
    mkdirSync(this.dir, { recursive: true });
    const stat = statSync(file);
    const stored: Stored = { file: path.resolve(file), size: stat.size, mtime_ms: stat.mtimeMs, checkpoint };
    const target = this.pathFor(file);
    // Written aside and renamed: an import killed mid-write leaves the previous checkpoint whole.
    writeFileSync(`${target}.tmp`, JSON.stringify(stored));
    renameSync(`${target}.tmp`, target);
  }
}
