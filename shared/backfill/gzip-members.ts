/**
 * A gzip WARC's bytes decompressed by Node's own zlib, member by member, remembering where each member
 * starts in the file: warcio then parses plain bytes, and a record's offset is still the file offset of
 * its gzip member (what a resumed read seeks to). warcio's own inflater is pako, in JavaScript: 57 % of
 * an import's WARC reading time (node --cpu-prof over bench/backfill-import.ts), about 3× native zlib.
 *
 * Members are inflated whole (a CC-NEWS record is a member of ~30 KB) on libuv's thread pool, one
 * member ahead of the reader: while warcio parses a member and the import stores its page, the next one
 * inflates, off the main thread (inflateRawSync there was ~17 % of the import's main thread, 0.3 ms a
 * page of 168 KB). A member larger than MAX_MEMBER_BYTES compressed (a whole-file gzip) is streamed
 * through zlib's gunzip from there on, its records all at that member's offset, as warcio would report
 * them.
 */
import { constants, createGunzip, inflateRaw, inflateRawSync } from "node:zlib";
import { isGzip } from "../fetch/body-decoding";

/** A member buffered whole up to this size; past it the rest of the file is streamed. */
const MAX_MEMBER_BYTES = 16 * 1024 * 1024;

/**
 * The output buffer an inflation starts with, from the size the member's trailer states, within these
 * bounds. zlib's default, 16 KB, took a page of 168 KB ~11 trips to the thread pool and back, each a
 * callback on the main thread (async inflateRaw over the bench's WARC, main thread's CPU: 390 ms at
 * 16 KB, 140 at 256 KB, 300 for inflateRawSync); a buffer of the member's own size takes one. The size is
 * read where the next member seems to start, so it is only a hint (the bytes 1f 8b 08 may occur inside
 * deflate data): too large a guess is cut to the upper bound, too small costs only more trips.
 */
const MIN_OUT_CHUNK = 4 * 1024;
const MAX_OUT_CHUNK = 1024 * 1024;
/** Without a hint (no next member in the buffer yet). */
const DEFAULT_OUT_CHUNK = 256 * 1024;

export class GzipCutShort extends Error {
  constructor(readonly fileOffset: number) {
    super("the file ends inside a gzip member: what it held is not read");
  }
}

/** Length of the gzip header at `buf[0]` (RFC 1952), or null when more bytes are needed. */
function headerLength(buf: Uint8Array): number | null {
  if (buf.length < 10) return null;
  if (!isGzip(buf) || buf[2] !== 8) throw new Error("not a gzip member (bad magic or method)");
  const flags = buf[3] ?? 0;
  let n = 10;
  if (flags & 4) {
    if (buf.length < n + 2) return null;
    n += 2 + ((buf[n] ?? 0) | ((buf[n + 1] ?? 0) << 8));
  }
  for (const bit of [8, 16]) {
    if (!(flags & bit)) continue;
    const end = buf.indexOf(0, n);
    if (end < 0) return null;
    n = end + 1;
  }
  if (flags & 2) n += 2;
  return n <= buf.length ? n : null;
}

type Inflated = { buffer: Buffer; engine: { bytesWritten: number } };

/** The uncompressed size the trailer of the member at `buf[0]` states, if the next member seems to
 * start in `buf` (after the header, `from`); null otherwise. */
function sizeHint(buf: Buffer, from: number): number | null {
  const next = buf.indexOf(GZIP_MAGIC, from + 8);
  return next < 0 ? null : buf.readUInt32LE(next - 4);
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 8]);

/**
 * The member at `buf[0]` inflated on the thread pool, with its compressed size; null when `buf` does
 * not hold all of it.
 */
async function inflateMember(buf: Buffer, ended: boolean): Promise<{ buffer: Buffer; size: number } | null> {
  const header = headerLength(buf);
  if (header === null) return null;
  const hint = sizeHint(buf, header);
  // No next member in sight: this one most likely goes on past `buf`. Reading more first spares a
  // failed inflation (its error was ~0.5 ms of the main thread, at every source chunk's boundary).
  if (hint === null && !ended) return null;
  // One byte over the output: a buffer filled exactly takes zlib one more trip to find the end.
  const chunkSize =
    hint === null ? DEFAULT_OUT_CHUNK : Math.min(Math.max(hint + 1, MIN_OUT_CHUNK), MAX_OUT_CHUNK);
  let out: Inflated;
  try {
    out = await new Promise<Inflated>((resolve, reject) =>
      inflateRaw(buf.subarray(header), { info: true, chunkSize }, (err, res) =>
        err ? reject(err) : resolve(res as unknown as Inflated),
      ),
    );
  } catch (err) {
    if ((err as { code?: string }).code === "Z_BUF_ERROR") return null;
    throw err;
  }
  // The deflate data, then CRC-32 and length (8 bytes).
  const size = header + out.engine.bytesWritten + 8;
  return size <= buf.length ? { buffer: out.buffer, size } : null;
}

/**
 * What a member the file ends inside holds: its deflate data inflated as far as it goes (a CC-NEWS file
 * cut short keeps most of its last page). Empty when not even the member's header is there.
 */
function inflateCut(buf: Buffer): Buffer {
  const header = headerLength(buf);
  if (header === null) return Buffer.alloc(0);
  try {
    return inflateRawSync(buf.subarray(header), { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return Buffer.alloc(0);
  }
}

/** What reading the next member came to. */
type Step =
  | { readonly kind: "member"; readonly bytes: Buffer }
  /** The source ended at a member boundary. */
  | { readonly kind: "end" }
  /** The source ended inside the member (`buf` holds what it has). */
  | { readonly kind: "cut" }
  /** A member larger than the limit: the rest is streamed. */
  | { readonly kind: "large" };

export class GzipMembers {
  /** [plain offset, file offset] of each member start, in order. */
  private readonly starts: [number, number][] = [];

  constructor(
    private readonly source: AsyncIterable<Uint8Array>,
    private readonly baseOffset: number,
    private readonly maxMemberBytes = MAX_MEMBER_BYTES,
  ) {}

  /** The file offset of the member holding plain offset `plain` (exact where a member starts there). */
  fileOffsetOf(plain: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    let best = this.baseOffset;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [p, f] = this.starts[mid] as [number, number];
      if (p <= plain) {
        best = f;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  }

  /**
   * The decompressed bytes. When the file ends inside a member, what that member holds is the last of
   * them (the record it cuts is read as far as it goes); GzipCutShort when it holds nothing. One member
   * is read and inflated ahead of the one yielded, no more (the file is still read as it is consumed).
   */
  async *plain(): AsyncGenerator<Uint8Array> {
    const it = this.source[Symbol.asyncIterator]();
    let buf: Buffer = Buffer.alloc(0);
    let ended = false;
    let fileAt = this.baseOffset;
    let plainAt = 0;
    /** Reads until `buf` holds `want` bytes or the source ends, joining the chunks once. */
    const fill = async (want: number): Promise<void> => {
      const parts: Uint8Array[] = [buf];
      let size = buf.length;
      while (size < want) {
        const next = await it.next();
        if (next.done) {
          ended = true;
          break;
        }
        parts.push(next.value);
        size += next.value.length;
      }
      if (parts.length > 1) buf = Buffer.concat(parts, size);
    };
    /** The next member read and inflated; only this moves `buf`, `fileAt` and `plainAt` on, one call at
     * a time. */
    const next = async (): Promise<Step> => {
      /** Bytes wanted in `buf` before trying again (doubles while a member is incomplete). */
      let want = 1;
      for (;;) {
        if (buf.length < want && !ended) await fill(want);
        if (buf.length === 0) return { kind: "end" };
        const out = await inflateMember(buf, ended || buf.length >= this.maxMemberBytes);
        if (out === null) {
          if (ended) return { kind: "cut" };
          if (buf.length >= this.maxMemberBytes) return { kind: "large" };
          want = Math.max(buf.length * 2, 64 * 1024);
          continue;
        }
        this.starts.push([plainAt, fileAt]);
        plainAt += out.buffer.length;
        fileAt += out.size;
        buf = buf.subarray(out.size);
        return { kind: "member", bytes: out.buffer };
      }
    };
    let step = next();
    for (;;) {
      const done = await step;
      if (done.kind === "member") {
        // The next member inflates on the thread pool while this one is parsed and its page stored.
        step = next();
        // Awaited on the next turn, which throws its failure; until then it is not unhandled.
        step.catch(() => {});
        if (done.bytes.length > 0) yield done.bytes;
        continue;
      }
      if (done.kind === "end") return;
      if (done.kind === "large") {
        yield* this.streamRest(buf, it, fileAt, plainAt);
        return;
      }
      const held = inflateCut(buf);
      if (held.length === 0) throw new GzipCutShort(fileAt);
      this.starts.push([plainAt, fileAt]);
      yield held;
      return;
    }
  }

  /** The rest of the file through zlib's streaming gunzip (members past MAX_MEMBER_BYTES). */
  private async *streamRest(
    head: Buffer,
    it: AsyncIterator<Uint8Array>,
    fileAt: number,
    plainAt: number,
  ): AsyncGenerator<Uint8Array> {
    this.starts.push([plainAt, fileAt]);
    // A file cut inside this member ends its bytes where the cut is, as a cut small member does.
    const gunzip = createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
    const feed = (async () => {
      try {
        if (!gunzip.write(head)) await new Promise((r) => gunzip.once("drain", r));
        for (let n = await it.next(); !n.done; n = await it.next())
          if (!gunzip.write(n.value)) await new Promise((r) => gunzip.once("drain", r));
        gunzip.end();
      } catch (err) {
        gunzip.destroy(err as Error);
      }
    })();
    try {
      for await (const chunk of gunzip) yield chunk as Buffer;
    } catch (err) {
      if ((err as { code?: string }).code === "Z_BUF_ERROR") throw new GzipCutShort(fileAt);
      throw err;
    } finally {
      gunzip.destroy();
      await feed.catch(() => {});
    }
  }
}
