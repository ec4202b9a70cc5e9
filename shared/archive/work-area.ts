/**
 * A run's work area: what each shard hands on to the commit and to its marking, under
 * `dataset/_work/dt=D/<runId>/` (outside every table's prefix, so no reader globs it). Ledgers are gzip
 * JSON lines, written a batch at a time (concatenated gzip members) and read back as a stream, so
 * neither side holds a shard's lines.
 */

import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import * as zlib from "node:zlib";
import { datasetKeys } from "../config/resource-names";
import { ArchiveError } from "./archive-error";
import type { ObjectStore } from "./ports";
import { storeCall } from "./store-call";

/** The day's work areas (every run's: the run that finishes the day deletes them all). */
export const dayWorkPrefix = (day: string): string => `${datasetKeys.root}_work/dt=${day}/`;

/** A shard's ledgers: story rows (for the commit), article and story marks (for its marking), its files. */
export type LedgerName = "stories" | "article-marks" | "story-marks";

export const ledgerKey = (day: string, runId: string, shard: number, name: LedgerName): string =>
  `${dayWorkPrefix(day)}${runId}/shard-${shard}/${name}.jsonl.gz`;

/** The shard's Parquet files (JSON), written last: a shard without it has not finished. */
export const shardFilesKey = (day: string, runId: string, shard: number): string =>
  `${dayWorkPrefix(day)}${runId}/shard-${shard}/files.json`;

/** ~1 MB of JSON a gzip member: small next to a shard, large enough to compress well. */
const BATCH_CHARS = 1 << 20;

/** Lines gzipped a batch at a time; only the compressed bytes are held until `put`. */
export class GzipLines {
  private readonly chunks: Uint8Array[] = [];
  private batch: string[] = [];
  private chars = 0;
  lines = 0;

  add(value: unknown): void {
    const line = `${JSON.stringify(value)}\n`;
    this.batch.push(line);
    this.chars += line.length;
    this.lines++;
    if (this.chars >= BATCH_CHARS) this.flush();
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    this.chunks.push(new Uint8Array(zlib.gzipSync(this.batch.join(""))));
    this.batch = [];
    this.chars = 0;
  }

  async put(store: ObjectStore, key: string): Promise<void> {
    this.flush();
    // An empty ledger is still a gzip file (an empty object is not one: gunzip refuses it).
    if (this.chunks.length === 0) this.chunks.push(new Uint8Array(zlib.gzipSync("")));
    await storeCall("write", key, () => store.put(key, this.chunks));
  }
}

/** Reads an object the work area must hold; its absence is a `missing_file` error naming the key. */
export async function workObject(store: ObjectStore, key: string): Promise<Uint8Array> {
  const bytes = await storeCall("read", key, () => store.get(key));
  if (bytes === null)
    throw new ArchiveError(
      "missing_file",
      `${key} is missing: its shard has not finished writing (re-run the day's archive)`,
    );
  return bytes;
}

/** A ledger's lines, parsed, streamed from its gzip bytes. */
export async function* readLedger<T>(store: ObjectStore, key: string): AsyncIterable<T> {
  const bytes = await workObject(store, key);
  const lines = createInterface({
    input: Readable.from([bytes]).pipe(zlib.createGunzip()),
    crlfDelay: Infinity,
  });
  for await (const line of lines) if (line) yield JSON.parse(line) as T;
}
