/** WARC files written with warcio's own writer, as a test needs them (plain, per-record gzip, whole-file gzip). */
import { gzipSync } from "node:zlib";
import { WARCRecord, WARCSerializer } from "warcio";

export type WarcRecordSpec =
  | {
      readonly type: "response";
      readonly url: string;
      readonly date: string;
      readonly body: string | Uint8Array;
      readonly contentType?: string;
      readonly status?: number;
      readonly headers?: Record<string, string>;
      readonly warcHeaders?: Record<string, string>;
    }
  | { readonly type: "request"; readonly url: string; readonly date: string }
  | {
      readonly type: "revisit";
      readonly url: string;
      readonly date: string;
      /** WARC-Refers-To: the record holding the payload this one repeats. */
      readonly refersTo?: string;
    }
  | { readonly type: "metadata"; readonly url: string; readonly date: string }
  /** A Heritrix DNS lookup: a response record whose block is `text/dns`, not HTTP. */
  | { readonly type: "dns"; readonly host: string; readonly date: string }
  | {
      readonly type: "resource" | "conversion" | "continuation";
      readonly url: string;
      readonly date: string;
    }
  | { readonly type: "warcinfo" };

export type WarcLayout = "plain" | "record-gzip" | "file-gzip";

const enc = new TextEncoder();

function recordOf(spec: WarcRecordSpec): WARCRecord {
  if (spec.type === "warcinfo")
    return WARCRecord.createWARCInfo({ filename: "test.warc" }, { software: "storytrail tests" });
  if (spec.type === "response") {
    const body = typeof spec.body === "string" ? enc.encode(spec.body) : spec.body;
    const status = spec.status ?? 200;
    return WARCRecord.create(
      {
        url: spec.url,
        date: spec.date,
        type: "response",
        statusline: `HTTP/1.1 ${status} ${status === 200 ? "OK" : "Status"}`,
        httpHeaders: { "Content-Type": spec.contentType ?? "text/html; charset=utf-8", ...spec.headers },
        warcHeaders: spec.warcHeaders ?? {},
      },
      [body],
    );
  }
  if (spec.type === "request")
    return WARCRecord.create(
      {
        url: spec.url,
        date: spec.date,
        type: "request",
        statusline: "GET / HTTP/1.1",
        httpHeaders: { Host: "x" },
      },
      [],
    );
  if (spec.type === "revisit")
    return WARCRecord.create(
      {
        url: spec.url,
        date: spec.date,
        type: "revisit",
        refersToUrl: spec.url,
        refersToDate: spec.date,
        warcHeaders: spec.refersTo ? { "WARC-Refers-To": spec.refersTo } : {},
        httpHeaders: { "Content-Type": "text/html" },
      },
      [],
    );
  if (spec.type === "dns") {
    const record = WARCRecord.create(
      {
        url: `dns:${spec.host}`,
        date: spec.date,
        type: "response",
        warcHeaders: { "Content-Type": "text/dns" },
      },
      [enc.encode(`20240305102030\n${spec.host}.\t300\tIN\tA\t192.0.2.7\n`)],
    );
    // Heritrix writes the lookup's answer alone: no HTTP status line or headers.
    record.httpHeaders = null;
    return record;
  }
  if (spec.type !== "metadata")
    return WARCRecord.create(
      {
        url: spec.url,
        date: spec.date,
        type: spec.type,
        warcHeaders: { "Content-Type": spec.type === "resource" ? "image/png" : "text/plain" },
      },
      [enc.encode(spec.type === "resource" ? "\x89PNG" : "converted text")],
    );
  return WARCRecord.create({ url: spec.url, date: spec.date, type: "metadata" }, [
    enc.encode("via: test\r\n"),
  ]);
}

/** Each record serialized on its own: plain bytes, or one gzip member. */
export async function serializeRecords(specs: readonly WarcRecordSpec[], gzip: boolean): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const spec of specs) out.push(Buffer.from(await WARCSerializer.serialize(recordOf(spec), { gzip })));
  return out;
}

export async function writeWarc(specs: readonly WarcRecordSpec[], layout: WarcLayout): Promise<Buffer> {
  const parts = await serializeRecords(specs, layout === "record-gzip");
  const all = Buffer.concat(parts);
  return layout === "file-gzip" ? gzipSync(all) : all;
}

const CRLF2 = Buffer.from("\r\n\r\n");

/** A record's bytes with LF-only heads, as some old CCBot files hold them (a 2014 BBC News response):
 * LF ends every WARC and HTTP header line and the record, Content-Length counts the block as written. */
function lfOnly(record: Buffer): Buffer {
  const headEnd = record.indexOf(CRLF2);
  const head = record.subarray(0, headEnd).toString("latin1").replace(/\r\n/g, "\n");
  let block = record.subarray(headEnd + CRLF2.length, record.length - CRLF2.length);
  const httpEnd = /^(HTTP\/|GET |POST )/.test(block.subarray(0, 8).toString("latin1"))
    ? block.indexOf(CRLF2)
    : -1;
  if (httpEnd >= 0) {
    const httpHead = block.subarray(0, httpEnd).toString("latin1").replace(/\r\n/g, "\n");
    block = Buffer.concat([Buffer.from(`${httpHead}\n\n`, "latin1"), block.subarray(httpEnd + CRLF2.length)]);
  }
  const warcHead = head.replace(/^Content-Length: \d+$/m, `Content-Length: ${block.length}`);
  return Buffer.concat([Buffer.from(`${warcHead}\n\n`, "latin1"), block, Buffer.from("\n\n")]);
}

/** A plain WARC file whose heads end their lines with LF alone (see lfOnly). */
export async function writeLfOnlyWarc(specs: readonly WarcRecordSpec[]): Promise<Buffer> {
  return Buffer.concat((await serializeRecords(specs, false)).map(lfOnly));
}
