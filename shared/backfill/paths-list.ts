/**
 * The WARC files of a backfill run: a CC-NEWS month's paths list (Common Crawl publishes one per month,
 * `crawl-data/CC-NEWS/YYYY/MM/warc.paths.gz`, one object key per line) or an operator's own list, and
 * the state machine inputs that carry them.
 */
import { gunzipSync } from "node:zlib";
import { isGzip } from "../fetch/body-decoding";
import { CC_NEWS_PREFIX } from "./cc-news";

/** Step Functions refuses execution input over 256 KiB; a CC-NEWS month (~500 keys of ~65 bytes) is ~35 KB. */
const MAX_INPUT_BYTES = 240 * 1024;

/**
 * A paths list's text is inflated no further than this: a CC-NEWS month's list is ~35 KB, so 16 MiB
 * (~250,000 keys) is far past any real list and keeps a gzip bomb from taking the CLI's memory.
 */
const MAX_LIST_BYTES = 16 * 1024 * 1024;

export class PathsListError extends Error {}

/** CC-NEWS starts in August 2016. */
const FIRST_MONTH = "2016-08";

/** `YYYY-MM` → the key of that month's paths list in the commoncrawl bucket. */
export function ccNewsPathsKey(month: string): string {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw new PathsListError(`--month must be YYYY-MM (got ${JSON.stringify(month)})`);
  if (month < FIRST_MONTH) throw new PathsListError(`CC-NEWS starts in ${FIRST_MONTH} (got ${month})`);
  return `${CC_NEWS_PREFIX}${m[1]}/${m[2]}/warc.paths.gz`;
}

/** A paths list's keys (gzip or plain text; blank lines and `#` comments ignored), in order, once each. */
export function parsePathsList(bytes: Uint8Array, origin: string): string[] {
  let text: string;
  try {
    text = (
      isGzip(bytes) ? gunzipSync(bytes, { maxOutputLength: MAX_LIST_BYTES }) : Buffer.from(bytes)
    ).toString("utf8");
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new PathsListError(`${origin}: expands past ${MAX_LIST_BYTES} bytes; not a paths list`);
    throw new PathsListError(`${origin}: not a readable gzip file (${(err as Error).message})`);
  }
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    if (/\s/.test(line) || line.startsWith("s3://") || line.startsWith("/"))
      throw new PathsListError(
        `${origin}:${i + 1}: expected one object key per line (like crawl-data/CC-NEWS/…/x.warc.gz), got ${JSON.stringify(line.slice(0, 80))}`,
      );
    if (!seen.has(line)) keys.push(line);
    seen.add(line);
  }
  if (keys.length === 0) throw new PathsListError(`${origin}: no object keys in it`);
  return keys;
}

export interface BackfillRunInput {
  readonly bucket: string;
  readonly keys: readonly string[];
}

/** The keys as state machine inputs, each under MAX_INPUT_BYTES (one execution each). */
export function backfillInputs(
  bucket: string,
  keys: readonly string[],
  maxBytes = MAX_INPUT_BYTES,
): BackfillRunInput[] {
  const size = (ks: readonly string[]) => Buffer.byteLength(JSON.stringify({ bucket, keys: ks }));
  const empty = size([]);
  const out: BackfillRunInput[] = [];
  let current: string[] = [];
  let bytes = empty;
  for (const key of keys) {
    const keyBytes = Buffer.byteLength(JSON.stringify(key));
    if (empty + keyBytes > maxBytes)
      throw new PathsListError(`object key too long for an input: ${key.slice(0, 80)}…`);
    // A key after the first also takes a comma.
    if (current.length > 0 && bytes + 1 + keyBytes > maxBytes) {
      out.push({ bucket, keys: current });
      current = [];
      bytes = empty;
    }
    bytes += (current.length > 0 ? 1 : 0) + keyBytes;
    current.push(key);
  }
  if (current.length > 0) out.push({ bucket, keys: current });
  return out;
}

/** Keys outside the deployment's prefix: its function may not read them (infra/backfill.ts). */
export function keysOutside(keys: readonly string[], prefix: string): string[] {
  return keys.filter((k) => !k.startsWith(prefix));
}
