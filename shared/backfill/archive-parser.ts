/**
 * warcio's WARCParser, reading each record's heads (the WARC header block and a response's HTTP head) as
 * lenient readers do (Python's warcio, Heritrix's): up to the first empty line, whether the lines end
 * in CRLF or in LF alone, as some old CCBot records do (a 2014 BBC News response, LF only
 * throughout). warcio's own parser ends a head at CRLF CRLF only: on an LF-only file it read the rest of
 * the file as one record's header block, and the import counted one `truncated` record and no article.
 *
 * A record that still cannot be read is told apart from one the file ends inside: the input ending
 * inside a head marks the record `cut` (counted `truncated`), a head that is whole but unusable marks it
 * `malformed` with the reason (no Content-Length, an HTTP head that does not end within the record's
 * block, a head over MAX_HEAD_BYTES).
 */
import {
  type AsyncIterReader,
  LimitReader,
  StatusAndHeaders,
  StatusAndHeadersParser,
  WARCParser,
  WARCRecord,
} from "warcio";

/** A head longer than this is not a head (a bound, DESIGN invariant 4): warcio set none, and read an
 * LF-only file whole as one head. Not a measured figure: far above any head a crawler writes. */
const MAX_HEAD_BYTES = 1 << 20;

interface HeadRead {
  readonly head: StatusAndHeaders;
  /** Why the head ended where it did: its empty line, the input ended first, or `max` bytes came first. */
  readonly end: "empty line" | "end of input" | "max";
}

const utf8 = new TextDecoder("utf-8");
const isBlank = (line: Uint8Array) => line.every((b) => b === 10 || b === 13);
const isWarcLine = (line: Uint8Array) => utf8.decode(line.subarray(0, 5)) === "WARC/";

/** What a response record's block is when it is not an HTTP message (Heritrix's `dns:` lookups). */
export function nonHttpBlock(record: WARCRecord): string | null {
  if ((record.warcTargetURI ?? "").startsWith("dns:")) return "dns";
  const type = (record.warcContentType ?? "").toLowerCase();
  return type && !type.startsWith("application/http") ? type : null;
}

/**
 * The bytes of a head up to and with its empty line (LF, or CRLF, after a line's LF), at most `max`: one
 * pass over the reader's chunks, the rest given back, as warcio's readToDoubleCRLF does. (Reading it a
 * line at a time, an async call a line, read 3,000 records in 656-836 ms against warcio's 424-474.)
 */
async function headBytes(
  reader: AsyncIterReader,
  max: number,
): Promise<{ bytes: Uint8Array; end: HeadRead["end"] }> {
  const parts: Uint8Array[] = [];
  let size = 0;
  // The head starts at a line's start (its status line was read); a CR there may open an empty line.
  let lineStart = true;
  for await (const chunk of reader) {
    const room = max - size;
    for (let i = 0; i < chunk.length && i < room; i++) {
      const b = chunk[i];
      if (b === 10) {
        if (lineStart) {
          parts.push(chunk.subarray(0, i + 1));
          reader.unread(chunk.subarray(i + 1));
          return { bytes: Buffer.concat(parts), end: "empty line" };
        }
        lineStart = true;
      } else if (b !== 13) lineStart = false;
    }
    if (chunk.length >= room) {
      parts.push(chunk.subarray(0, room));
      reader.unread(chunk.subarray(room));
      return { bytes: Buffer.concat(parts), end: "max" };
    }
    parts.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(parts), end: "end of input" };
}

/** The header lines' parser: warcio's rules for a line (a name, a colon, a value; folded lines). */
class LineHeadParser extends StatusAndHeadersParser {
  async read(
    reader: AsyncIterReader,
    statusline: string,
    headersClass: WARCParser["_headersClass"],
    max: number,
  ): Promise<HeadRead> {
    const { bytes, end } = await headBytes(reader, max);
    const headers = new headersClass();
    let name = "";
    let value: string | null = null;
    for (const raw of utf8.decode(bytes).split("\n")) {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (value !== null && (line[0] === " " || line[0] === "\t")) {
        value += line.trimEnd();
        continue;
      }
      if (value !== null) this.setHeader(name, value, headers);
      const colon = line.indexOf(":");
      if (colon < 0) value = null;
      else {
        name = line.slice(0, colon).trimStart();
        value = line.slice(colon + 1).trim();
      }
    }
    if (value !== null) this.setHeader(name, value, headers);
    return {
      head: new StatusAndHeaders({ statusline, headers, reencodeHeaders: this.reencodeHeaders }),
      end,
    };
  }
}

export class ArchiveParser extends WARCParser {
  /** Records the input ends inside a head of. */
  readonly cut = new WeakSet<WARCRecord>();
  /** Records whose heads are whole but cannot be read, with why. */
  readonly malformed = new WeakMap<WARCRecord, string>();

  /**
   * Passes over the rest of the record before: its block, and a line of it the block's Content-Length
   * fell short of (warcio passes over it too, with a warning). The lines between records, CRLF or LF
   * alone, are passed over by `parse`.
   */
  override async readToNextRecord(): Promise<Uint8Array | null> {
    if (!this._record) return null;
    await this._record.skipFully();
    const line = await this._reader.readlineRaw(MAX_HEAD_BYTES);
    if (line && !isBlank(line) && !isWarcLine(line)) return this._reader.readlineRaw(MAX_HEAD_BYTES);
    return line;
  }

  override async parse(): Promise<WARCRecord | null> {
    let first = await this.readToNextRecord();
    while (!first || isBlank(first)) {
      first = await this._reader.readlineRaw(MAX_HEAD_BYTES);
      if (!first) return null;
    }
    this._offset = this._reader.getRawOffset() - first.byteLength;
    const statusline = utf8.decode(first).trimEnd();
    const { head, end } = await new LineHeadParser().read(
      this._reader,
      statusline,
      this._headersClass,
      MAX_HEAD_BYTES,
    );
    this._warcHeadersLength = this._reader.getReadOffset();
    const record = new WARCRecord({ warcHeaders: head, reader: this._initRecordReader(head) });
    this._record = record;
    const length = head.headers.get("Content-Length");
    if (end === "end of input") this.cut.add(record);
    else if (end === "max") this.malformed.set(record, `WARC head over ${MAX_HEAD_BYTES} bytes`);
    else if (/^WARC\/\d/.test(statusline) && !/^\s*\d+\s*$/.test(length ?? ""))
      this.malformed.set(record, `Content-Length ${JSON.stringify(length ?? "(none)")}: its end is unknown`);
    const type = record.warcType;
    if (
      this._parseHttp &&
      end === "empty line" &&
      (type === "response" || type === "request" || (type === "revisit" && record.warcContentLength > 0))
    )
      await this.readHttpHead(record);
    return record;
  }

  /** A Content-Length that is not a number reads as none (warcio's NaN limit read the rest of the file). */
  override _initRecordReader(warcHeaders: StatusAndHeaders): LimitReader {
    const length = warcHeaders.headers.get("Content-Length") ?? "";
    return new LimitReader(this._reader, /^\s*\d+\s*$/.test(length) ? Number(length) : 0);
  }

  /**
   * The HTTP head, read within the record's block (warcio read it from the file up to CRLF CRLF, so a
   * head that did not end ran on into the next record). Only an HTTP block is parsed: a `dns:` record's
   * is not a head. A block whose first line is empty has no head, as in warcio.
   */
  private async readHttpHead(record: WARCRecord): Promise<void> {
    const block = record.reader;
    if (nonHttpBlock(record) !== null || !(block instanceof LimitReader) || block.limit <= 0) return;
    const length = block.limit;
    const first = await this._reader.readlineRaw(Math.min(length, MAX_HEAD_BYTES));
    if (!first) {
      this.cut.add(record);
      return;
    }
    const statusline = utf8.decode(first).trimEnd();
    const room = length - first.byteLength;
    const read = statusline
      ? await new LineHeadParser().read(
          this._reader,
          statusline,
          this._headersClass,
          Math.min(room, MAX_HEAD_BYTES),
        )
      : null;
    block.setLimitSkip(length - (this._reader.getReadOffset() - this._warcHeadersLength));
    if (!read || read.end === "empty line") record.httpHeaders = read?.head ?? null;
    else if (read.end === "end of input") this.cut.add(record);
    else if (room > MAX_HEAD_BYTES) this.malformed.set(record, `HTTP head over ${MAX_HEAD_BYTES} bytes`);
    else this.malformed.set(record, "the HTTP head does not end within the record's Content-Length");
  }
}
