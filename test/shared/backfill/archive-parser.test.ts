/**
 * The WARC parser's heads: LF-only lines read as lenient readers do, a record the input ends inside a
 * head of told apart from one whose heads are whole but unusable (malformed).
 */
import { describe, expect, it } from "vitest";
import type { WARCRecord } from "warcio";
import { ArchiveParser } from "../../../shared/backfill/archive-parser";
import { writeLfOnlyWarc, writeWarc } from "../../support/warc-files";

const DATE = "2014-08-02T09:52:13Z";
const URL_A = "http://news.bbc.co.uk/2/hi/africa/3414345.stm";
const URL_B = "http://news.bbc.co.uk/2/hi/africa/3414346.stm";
/** A body with CRLF and LF lines of its own: only the heads' line endings change. */
const BODY =
  "<html>\r\n<head><title>Namibia braces for Nujoma exit</title></head>\n<body><p>Text.</p></body></html>";

interface Read {
  readonly offset: number;
  readonly type: string | null | undefined;
  readonly url: string | null | undefined;
  readonly status: number | string | undefined;
  readonly contentType: string | null | undefined;
  readonly body: string;
  readonly cut: boolean;
  readonly malformed: string | undefined;
}

async function parse(file: Buffer): Promise<Read[]> {
  const parser = new ArchiveParser(
    (async function* () {
      for (let i = 0; i < file.length; i += 100) yield file.subarray(i, i + 100);
    })(),
  );
  const out: Read[] = [];
  for await (const record of parser as AsyncIterable<WARCRecord>) {
    const body = record.httpHeaders ? new TextDecoder().decode(await record.readFully(true)) : "";
    await record.skipFully();
    out.push({
      offset: parser.offset,
      type: record.warcType,
      url: record.warcTargetURI,
      status: record.httpHeaders?.statusCode,
      contentType: record.httpHeaders?.headers.get("content-type"),
      body,
      cut: parser.cut.has(record),
      malformed: parser.malformed.get(record),
    });
  }
  return out;
}

const response = (url: string) => ({ type: "response" as const, url, date: DATE, body: BODY });

describe("ArchiveParser", () => {
  it("reads LF-only WARC and HTTP heads as CRLF ones: the same records, heads and bodies", async () => {
    const specs = [{ type: "warcinfo" as const }, response(URL_A), response(URL_B)];
    const lf = await writeLfOnlyWarc(specs);
    expect(lf.includes("\r\n\r\n")).toBe(false);
    const records = await parse(lf);
    const strip = (r: Read) => ({ ...r, offset: 0 });
    expect(records.map(strip)).toEqual((await parse(await writeWarc(specs, "plain"))).map(strip));
    expect(records.slice(1)).toMatchObject([
      { type: "response", url: URL_A, status: 200, contentType: "text/html; charset=utf-8", body: BODY },
      { type: "response", url: URL_B, status: 200, body: BODY, cut: false, malformed: undefined },
    ]);
    // Each offset is where its record starts in the file.
    for (const r of records) expect(lf.subarray(r.offset, r.offset + 9).toString()).toBe("WARC/1.0\n");
  });

  it("marks a response whose HTTP head does not end within its block malformed, and reads the next", async () => {
    const http = "HTTP/1.1 200 OK\nContent-Type: text/html\n<html><body>no empty line</body></html>";
    const broken = `WARC/1.0\nWARC-Type: response\nWARC-Date: ${DATE}\nWARC-Target-URI: ${URL_A}\nContent-Length: ${http.length}\n\n${http}\n\n`;
    const file = Buffer.concat([Buffer.from(broken), await writeLfOnlyWarc([response(URL_B)])]);
    const [first, second] = await parse(file);
    expect(first).toMatchObject({
      url: URL_A,
      status: undefined,
      cut: false,
      malformed: "the HTTP head does not end within the record's Content-Length",
    });
    expect(second).toMatchObject({ url: URL_B, status: 200, body: BODY, malformed: undefined });
  });

  it("marks a whole WARC head without a Content-Length malformed, one the file ends inside cut", async () => {
    const noLength = `WARC/1.0\nWARC-Type: metadata\nWARC-Date: ${DATE}\n\n`;
    const file = Buffer.concat([Buffer.from(noLength), await writeLfOnlyWarc([response(URL_B)])]);
    const [first, second] = await parse(file);
    expect(first).toMatchObject({
      type: "metadata",
      cut: false,
      malformed: 'Content-Length "(none)": its end is unknown',
    });
    expect(second).toMatchObject({ url: URL_B, body: BODY });

    const cut = await parse(Buffer.from(`WARC/1.0\nWARC-Type: response\nWARC-Date: ${DATE}\nContent-Len`));
    expect(cut).toMatchObject([{ type: "response", cut: true, malformed: undefined }]);
  });
});
