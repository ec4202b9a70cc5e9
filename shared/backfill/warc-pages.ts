/**
 * Reads a WARC stream (plain, one gzip member per record, or one gzip member for the whole file) with
 * warcio and turns each record into an archived page or a counted reason to skip it. A record that
 * cannot be read is an error with its offset; the records after it are still read.
 *
 * Archives as crawlers write them: `dns:` lookups, conversions and continuations are skipped by type;
 * a response the crawler cut (`WARC-Truncated`, any reason) or the file ends inside is read for what it
 * holds, the page marked `truncated` (most cuts fall past the article, at the end of a long page).
 * Heads are read as lenient readers do (archive-parser.ts: LF-only lines too); a record whose heads are
 * whole but unusable is `malformed`, never `truncated`, which is only for a record the file ends inside.
 */
import { LimitReader, type WARCRecord } from "warcio";
import { isGzip } from "../fetch/body-decoding";
import { decodeBody } from "../fetch/charset";
import { ArchiveParser, nonHttpBlock } from "./archive-parser";
import { GzipCutShort, GzipMembers } from "./gzip-members";

/** Why a record did not become a page; each is counted in the import summary. */
export const SKIP_REASONS = [
  "warcinfo",
  "request",
  "metadata",
  "revisit",
  "resource",
  "conversion",
  "continuation",
  "dns",
  "not_http",
  "other_type",
  "truncated",
  "malformed",
  "http_status",
  "not_html",
  "too_large",
  "invalid_url",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * A page read from the archive. Its text is decoded when first asked for: with a pool of workers the
 * bytes go to a worker, which decodes them there (decoding was ~7 % of the import's main thread, and
 * cloning the decoded text to the worker ~10 %, node --cpu-prof); this thread decodes only the pages
 * whose raw HTML is kept.
 */
export class ArchivedPage {
  private decoded: { text: string; charset: string } | null = null;

  constructor(
    /** WARC-Target-URI. */
    readonly url: string,
    readonly status: number,
    /** HTTP response headers, lower-case names. */
    readonly headers: Record<string, string>,
    readonly contentType: string,
    /** Content-Encoding and chunking undone. */
    readonly bytes: Uint8Array,
    /** WARC-Date: when the archive fetched the page. */
    readonly collectedAt: Date,
    /** Why the archive holds only the start of the page (`WARC-Truncated`'s reason, or `end of file`);
     * null when it holds all of it. */
    readonly truncated: string | null,
  ) {}

  get text(): string {
    this.decoded ??= decodeBody(this.bytes, this.contentType);
    return this.decoded.text;
  }

  get charset(): string {
    this.decoded ??= decodeBody(this.bytes, this.contentType);
    return this.decoded.charset;
  }
}

interface EntryPosition {
  /**
   * Byte offset of the record in the file, as warcio reports it: exact for plain files and one gzip
   * member per record; in a whole-file gzip, the offset of a member boundary, which may lie anywhere.
   */
  readonly offset: number;
  /** 1-based position of the record in the file. */
  readonly ordinal: number;
  /** WARC-Record-ID: a resumed read checks it finds the record it expects at `offset`. */
  readonly recordId: string | null;
}

export type WarcEntry = EntryPosition &
  (
    | { readonly kind: "page"; readonly page: ArchivedPage }
    | { readonly kind: "skipped"; readonly reason: SkipReason; readonly detail: string }
    | { readonly kind: "error"; readonly detail: string }
  );

export interface ReadOptions {
  /** Decoded page bytes beyond this are not read (the fetcher's cap, 5 MB). */
  readonly maxBytes: number;
  /** Where `source` starts in the file (a resumed read). */
  readonly baseOffset?: number;
  /** Records already read before `source` starts (their ordinals are not reused). */
  readonly baseOrdinal?: number;
  /** Records at the start of `source` to pass over unread (resuming a whole-file gzip). */
  readonly skipRecords?: number;
}

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
/** Types that say nothing: the body decides, as the fetcher sniffs them. */
const VAGUE_TYPES = new Set(["", "text/plain", "application/octet-stream", "binary/octet-stream"]);
const TYPE_SKIPS: Partial<Record<string, SkipReason>> = {
  warcinfo: "warcinfo",
  request: "request",
  metadata: "metadata",
  revisit: "revisit",
  resource: "resource",
  conversion: "conversion",
  continuation: "continuation",
};

const mediaType = (contentType: string) => (contentType.split(";")[0] ?? "").trim().toLowerCase();
const looksLikeHtml = (bytes: Uint8Array) =>
  /^\s*<(!doctype html|html|head|body|!--)/i.test(new TextDecoder().decode(bytes.subarray(0, 512)));

function headersOf(record: WARCRecord): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of record.httpHeaders?.headers ?? []) out[k.toLowerCase()] = v;
  return out;
}

function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

type Verdict = { kind: "skipped"; reason: SkipReason; detail: string } | { kind: "error"; detail: string };

/** Everything decidable from the record's headers, before its body is read. */
function judgeHeaders(record: WARCRecord): Verdict | null {
  const statusline = record.warcHeaders.statusline;
  if (!/^WARC\/\d/.test(statusline))
    return {
      kind: "error",
      detail: `not a WARC record: starts with ${JSON.stringify(statusline.slice(0, 40))}`,
    };
  const type = record.warcType ?? "";
  if (type !== "response") {
    const reason = TYPE_SKIPS[type] ?? "other_type";
    return { kind: "skipped", reason, detail: `WARC-Type ${type || "(none)"}` };
  }
  const block = nonHttpBlock(record);
  if (block !== null)
    return block === "dns"
      ? { kind: "skipped", reason: "dns", detail: `DNS lookup ${record.warcTargetURI}` }
      : { kind: "skipped", reason: "not_http", detail: `response block of type ${block}` };
  const http = record.httpHeaders;
  if (!http?.statusCode) return { kind: "error", detail: "response record without an HTTP status line" };
  const status = Number(http.statusCode);
  if (status < 200 || status >= 300)
    return { kind: "skipped", reason: "http_status", detail: `HTTP ${status}` };
  const url = record.warcTargetURI ?? "";
  if (!isHttpUrl(url)) return { kind: "skipped", reason: "invalid_url", detail: `WARC-Target-URI ${url}` };
  const date = new Date(record.warcDate ?? "");
  if (Number.isNaN(date.getTime()))
    return { kind: "error", detail: `WARC-Date ${record.warcDate} is not a date` };
  const type2 = mediaType(http.headers.get("content-type") ?? "");
  if (!HTML_TYPES.has(type2) && !VAGUE_TYPES.has(type2))
    return { kind: "skipped", reason: "not_html", detail: `content type ${type2}` };
  return null;
}

/** Reads the decoded body up to `maxBytes`; null when it is longer (the rest is skipped unread). */
async function readCapped(record: WARCRecord, maxBytes: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of record.contentReader) {
    size += chunk.byteLength;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads what is left of the record's block, and tells whether the file ended before its Content-Length.
 * Done here for every record, which is then marked consumed: before reading the next record, warcio
 * skips the rest of any record not marked so (`LimitReader.skipFully`: `while (limit > 0) limit -=
 * await skipSize(limit)`), and at the end of the source skipSize returns 0, so on a block the file
 * ends inside that loop never ends; it only awaits settled promises, so no timer (a test's timeout
 * included) ever runs again.
 */
async function drainCutShort(record: WARCRecord): Promise<boolean> {
  const block = record._reader;
  if (!(block instanceof LimitReader)) return false;
  try {
    for await (const _ of block);
  } finally {
    record.consumed = "skipped";
  }
  return block.limit > 0;
}

/** A record cut before anything of its page could be read (inside its headers, say). */
const CUT = { kind: "skipped", reason: "truncated", detail: "the file ends inside the record" } as const;
const CUT_MEMBER: Verdict = {
  kind: "skipped",
  reason: "truncated",
  detail: "the file ends inside a gzip member: what it held is not read",
};

async function toEntry(
  record: WARCRecord,
  maxBytes: number,
  parser: ArchiveParser,
): Promise<Verdict | { kind: "page"; page: ArchivedPage }> {
  // The file ends inside a head (or, below, inside the block): a cut record, not a malformed one.
  if (parser.cut.has(record)) {
    await drainCutShort(record);
    return CUT;
  }
  const malformed = parser.malformed.get(record);
  if (malformed)
    return (await drainCutShort(record)) ? CUT : { kind: "skipped", reason: "malformed", detail: malformed };
  const verdict = judgeHeaders(record);
  if (verdict) return (await drainCutShort(record)) ? CUT : verdict;
  const headers = headersOf(record);
  const contentType = headers["content-type"] ?? "";
  const declared = record.warcHeader("WARC-Truncated") ?? null;
  let bytes: Uint8Array | null;
  try {
    bytes = await readCapped(record, maxBytes);
  } catch (err) {
    // A compressed body cut short may not inflate: a cut record's, not the file's, problem.
    if ((await drainCutShort(record)) || declared)
      return { ...CUT, detail: `${CUT.detail}: ${(err as Error).message}` };
    throw err;
  }
  const truncated = (await drainCutShort(record)) ? "end of file" : declared;
  if (!bytes) return { kind: "skipped", reason: "too_large", detail: `body over ${maxBytes} bytes` };
  if (!HTML_TYPES.has(mediaType(contentType)) && !looksLikeHtml(bytes))
    return {
      kind: "skipped",
      reason: "not_html",
      detail: `content type ${contentType || "(none)"}, body not HTML`,
    };
  return {
    kind: "page",
    page: new ArchivedPage(
      record.warcTargetURI ?? "",
      Number(record.httpHeaders?.statusCode),
      headers,
      contentType,
      bytes,
      new Date(record.warcDate ?? ""),
      truncated,
    ),
  };
}

/** The source's first chunk, and the whole source again (the first chunk included). */
async function peek(
  source: AsyncIterable<Uint8Array>,
): Promise<{ first: Uint8Array; all: AsyncIterable<Uint8Array> }> {
  const it = source[Symbol.asyncIterator]();
  const head = await it.next();
  const first = head.done ? new Uint8Array(0) : head.value;
  const all = (async function* () {
    if (first.length) yield first;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  })();
  return { first, all };
}

export async function* readWarc(
  source: AsyncIterable<Uint8Array>,
  opts: ReadOptions,
): AsyncGenerator<WarcEntry> {
  const base = opts.baseOffset ?? 0;
  let ordinal = opts.baseOrdinal ?? 0;
  let toSkip = opts.skipRecords ?? 0;
  const { first, all } = await peek(source);
  // Gzip is inflated by node:zlib (gzip-members.ts), not by warcio's pako: warcio parses plain bytes.
  const members = isGzip(first) ? new GzipMembers(all, base) : null;
  const parser = new ArchiveParser(members ? members.plain() : all);
  const fileOffset = () => {
    const plain = Math.max(parser.offset, 0);
    return members ? members.fileOffsetOf(plain) : base + plain;
  };
  try {
    for await (const record of parser) {
      if (toSkip > 0) {
        toSkip--;
        await drainCutShort(record);
        continue;
      }
      ordinal++;
      const position = {
        offset: fileOffset(),
        ordinal,
        recordId: record.warcHeader("WARC-Record-ID") ?? null,
      };
      try {
        yield { ...position, ...(await toEntry(record, opts.maxBytes, parser)) };
      } catch (err) {
        if (err instanceof GzipCutShort) yield { ...position, ...CUT_MEMBER };
        else yield { ...position, kind: "error", detail: `unreadable record: ${(err as Error).message}` };
        await drainCutShort(record).catch(() => {});
      }
    }
  } catch (err) {
    const position = { offset: fileOffset(), ordinal: ordinal + 1, recordId: null };
    // A gzip member the file ends inside: counted, or a cut per-record gzip would lose its last record
    // unseen, and a cut whole-file gzip its tail.
    if (err instanceof GzipCutShort) yield { ...position, offset: err.fileOffset, ...CUT_MEMBER };
    // The parser itself failed (a damaged gzip member, say): nothing after this point can be trusted.
    else yield { ...position, kind: "error", detail: `unreadable from here: ${(err as Error).message}` };
  }
}
