import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readWarc, type WarcEntry } from "../../../shared/backfill/warc-pages";
import {
  serializeRecords,
  type WarcLayout,
  type WarcRecordSpec,
  writeLfOnlyWarc,
  writeWarc,
} from "../../support/warc-files";

const DATE = "2024-03-05T10:20:30Z";
const page = (title: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${"Words of the story. ".repeat(40)}</p></article></body></html>`;

/** A page long enough that a cut through its record leaves its start whole. */
const longPage = (title: string) =>
  page(title).replace(
    "</article>",
    `${Array.from({ length: 200 }, (_, i) => `<p>Paragraph ${i} adds detail number ${i * 7919}.</p>`).join("")}</article>`,
  );

const MIXED: WarcRecordSpec[] = [
  { type: "warcinfo" },
  { type: "request", url: "https://news.example/a", date: DATE },
  { type: "response", url: "https://news.example/a", date: DATE, body: page("First") },
  { type: "metadata", url: "https://news.example/a", date: DATE },
  {
    type: "response",
    url: "https://news.example/logo.png",
    date: DATE,
    body: new Uint8Array([137, 80, 78, 71]),
    contentType: "image/png",
  },
  { type: "revisit", url: "https://news.example/a", date: DATE },
  {
    type: "response",
    url: "https://news.example/long",
    date: DATE,
    body: page("Cut by the crawler"),
    warcHeaders: { "WARC-Truncated": "length" },
  },
  { type: "response", url: "https://news.example/gone", date: DATE, body: "<html>gone</html>", status: 404 },
  { type: "response", url: "https://news.example/b", date: "2024-03-06T08:00:00Z", body: page("Second") },
];

async function* chunks(buf: Buffer, size = 1000): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function read(buf: Buffer, opts: Partial<Parameters<typeof readWarc>[1]> = {}): Promise<WarcEntry[]> {
  const out: WarcEntry[] = [];
  for await (const e of readWarc(chunks(buf), { maxBytes: 5_000_000, ...opts })) out.push(e);
  return out;
}

const kinds = (entries: WarcEntry[]) =>
  entries.map((e) => (e.kind === "page" ? `page ${e.page.url}` : e.kind === "skipped" ? e.reason : "error"));

describe("readWarc", () => {
  it.each<WarcLayout>(["plain", "record-gzip", "file-gzip"])(
    "%s: each HTML response is a page with its WARC-Date; every other record is counted by kind",
    async (layout) => {
      const entries = await read(await writeWarc(MIXED, layout));
      expect(kinds(entries)).toEqual([
        "warcinfo",
        "request",
        "page https://news.example/a",
        "metadata",
        "not_html",
        "revisit",
        "page https://news.example/long",
        "http_status",
        "page https://news.example/b",
      ]);
      const long = entries[6];
      expect(long?.kind === "page" && long.page.truncated).toBe("length");
      expect(entries[2]?.kind === "page" && entries[2].page.truncated).toBeNull();
      const second = entries[8];
      expect(second?.kind === "page" && second.page.collectedAt.toISOString()).toBe(
        "2024-03-06T08:00:00.000Z",
      );
      expect(second?.kind === "page" && second.page.text).toContain("<h1>Second</h1>");
      expect(entries.map((e) => e.ordinal)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    },
  );

  it("gives plain and per-record gzip records offsets: reading from one starts at that record", async () => {
    for (const layout of ["plain", "record-gzip"] as const) {
      const file = await writeWarc(MIXED, layout);
      const entries = await read(file);
      const b = entries[8];
      const resumed = await read(file.subarray(b?.offset ?? 0), { baseOffset: b?.offset, baseOrdinal: 8 });
      expect(kinds(resumed)).toEqual(["page https://news.example/b"]);
      expect(resumed[0]).toMatchObject({ offset: b?.offset, ordinal: 9, recordId: b?.recordId });
    }
  });

  it("passes over the records already read (how a whole-file gzip resumes)", async () => {
    const file = await writeWarc(MIXED, "file-gzip");
    const resumed = await read(file, { skipRecords: 7, baseOrdinal: 7 });
    expect(kinds(resumed)).toEqual(["http_status", "page https://news.example/b"]);
    expect(resumed.map((e) => e.ordinal)).toEqual([8, 9]);
  });

  it("undoes the page's Content-Encoding, and skips a page past the byte cap without reading it", async () => {
    const html = page("Compressed");
    const specs: WarcRecordSpec[] = [
      {
        type: "response",
        url: "https://news.example/z",
        date: DATE,
        body: gzipSync(html),
        headers: { "Content-Encoding": "gzip" },
      },
      { type: "response", url: "https://news.example/big", date: DATE, body: page("x".repeat(20_000)) },
      { type: "response", url: "https://news.example/after", date: DATE, body: page("After") },
    ];
    const entries = await read(await writeWarc(specs, "record-gzip"), { maxBytes: 10_000 });
    expect(kinds(entries)).toEqual([
      "page https://news.example/z",
      "too_large",
      "page https://news.example/after",
    ]);
    expect(entries[0]?.kind === "page" && entries[0].page.text).toBe(html);
  });

  it("reads an HTML page served with a vague type by its body, and skips a non-HTML one", async () => {
    const specs: WarcRecordSpec[] = [
      {
        type: "response",
        url: "https://news.example/v",
        date: DATE,
        body: page("Vague"),
        contentType: "application/octet-stream",
      },
      {
        type: "response",
        url: "https://news.example/j",
        date: DATE,
        body: '{"a":1}',
        contentType: "text/plain",
      },
    ];
    expect(kinds(await read(await writeWarc(specs, "plain")))).toEqual([
      "page https://news.example/v",
      "not_html",
    ]);
  });

  // A plain file cut inside its last record spun forever (warcio's skip loop at the end of the source,
  // see drainCutShort): that case hung, not failed, before the fix. A cut gzip member read as nothing.
  it.each<WarcLayout>(["plain", "record-gzip", "file-gzip"])(
    "%s: reads the page the file ends inside for what it holds, marked truncated, and ends",
    async (layout) => {
      const specs: WarcRecordSpec[] = [
        ...MIXED,
        { type: "response", url: "https://news.example/cut", date: DATE, body: longPage("Cut short") },
      ];
      const file = await writeWarc(specs, layout);
      const whole = await read(file);
      // The cut falls two thirds into the last record (of the whole file, for one gzip member).
      const last = layout === "file-gzip" ? 0 : (whole.at(-1)?.offset ?? 0);
      const entries = await read(file.subarray(0, last + Math.floor(((file.length - last) * 2) / 3)));
      expect(kinds(entries)).toEqual(kinds(whole));
      const cut = entries.at(-1);
      expect(cut?.kind === "page" && cut.page.truncated).toBe("end of file");
      expect(cut?.kind === "page" && cut.page.text).toContain("<h1>Cut short</h1>");
      expect(cut?.kind === "page" && cut.page.text.length).toBeLessThan(longPage("Cut short").length);
    },
  );

  it.each<WarcLayout>(["plain", "record-gzip"])(
    "%s: counts a record the file ends inside its headers as truncated",
    async (layout) => {
      const file = await writeWarc(MIXED, layout);
      const last = (await read(file)).at(-1)?.offset ?? 0;
      const entries = await read(file.subarray(0, last + 60));
      expect(entries).toHaveLength(9);
      expect(entries.at(-1)).toMatchObject({ kind: "skipped", reason: "truncated", ordinal: 9 });
    },
  );

  it("counts a Heritrix crawl's DNS lookups, revisits, conversions and continuations by type", async () => {
    const specs: WarcRecordSpec[] = [
      { type: "warcinfo" },
      { type: "dns", host: "news.example", date: DATE },
      { type: "dns", host: "cdn.news.example", date: DATE },
      { type: "request", url: "https://news.example/a", date: DATE },
      { type: "response", url: "https://news.example/a", date: DATE, body: page("First") },
      { type: "metadata", url: "https://news.example/a", date: DATE },
      { type: "revisit", url: "https://news.example/a", date: DATE, refersTo: "<urn:uuid:first>" },
      { type: "resource", url: "https://news.example/logo.png", date: DATE },
      { type: "conversion", url: "https://news.example/a", date: DATE },
      { type: "continuation", url: "https://news.example/a", date: DATE },
      { type: "dns", host: "other.example", date: DATE },
      { type: "response", url: "https://news.example/b", date: DATE, body: page("Second") },
    ];
    for (const layout of ["plain", "record-gzip", "file-gzip"] as const) {
      const entries = await read(await writeWarc(specs, layout));
      expect(kinds(entries), layout).toEqual([
        "warcinfo",
        "dns",
        "dns",
        "request",
        "page https://news.example/a",
        "metadata",
        "revisit",
        "resource",
        "conversion",
        "continuation",
        "dns",
        "page https://news.example/b",
      ]);
      // A DNS record's block is not read as HTTP headers running into the next record: every record
      // keeps its own offset (they were listed twice at one offset).
      if (layout !== "file-gzip") {
        const offsets = entries.map((e) => e.offset);
        expect(offsets, layout).toEqual([...offsets].sort((a, b) => a - b));
        expect(new Set(offsets).size, layout).toBe(offsets.length);
      }
    }
  });

  it("ends on a file cut inside a record it passes over unread (resuming a whole-file gzip)", async () => {
    const file = await writeWarc(MIXED, "plain");
    const entries = await read(file.subarray(0, file.length - 300), { skipRecords: 9, baseOrdinal: 9 });
    expect(entries).toEqual([]);
  });

  it("reports a malformed record with its offset and reads the records after it", async () => {
    const [first, second, third] = await serializeRecords(
      [
        { type: "response", url: "https://news.example/1", date: DATE, body: page("One") },
        { type: "response", url: "https://news.example/2", date: "not a date", body: page("Two") },
        { type: "response", url: "https://news.example/3", date: DATE, body: page("Three") },
      ],
      true,
    );
    // A member whose header block is not WARC at all, between good ones.
    const junk = gzipSync("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n");
    const file = Buffer.concat([first as Buffer, junk, second as Buffer, third as Buffer]);
    const entries = await read(file);
    expect(kinds(entries)).toEqual([
      "page https://news.example/1",
      "error",
      "error",
      "page https://news.example/3",
    ]);
    expect(entries[1]).toMatchObject({ offset: first?.length });
    expect(entries[2]).toMatchObject({ offset: (first?.length ?? 0) + junk.length });
    expect(entries[1]?.kind === "error" && entries[1].detail).toMatch(/not a WARC record/);
    expect(entries[2]?.kind === "error" && entries[2].detail).toMatch(/WARC-Date/);
  });

  it("reads a file whose heads end their lines with LF alone (old CCBot records), plain or gzipped", async () => {
    const lf = await writeLfOnlyWarc(MIXED);
    for (const file of [lf, gzipSync(lf)]) {
      const entries = await read(file);
      expect(kinds(entries)).toEqual(kinds(await read(await writeWarc(MIXED, "plain"))));
      const long = entries.find((e) => e.kind === "page" && e.page.url === "https://news.example/long");
      expect(long?.kind === "page" && long.page.truncated).toBe("length");
      expect(long?.kind === "page" && long.page.text).toContain("<h1>Cut by the crawler</h1>");
    }
  });

  it("counts a record whose heads are whole but unusable as malformed, never truncated", async () => {
    const http = "HTTP/1.1 200 OK\nContent-Type: text/html\n<html><body>no empty line</body></html>";
    const broken = `WARC/1.0\nWARC-Type: response\nWARC-Date: ${DATE}\nWARC-Target-URI: https://news.example/x\nContent-Length: ${http.length}\n\n${http}\n\n`;
    const good = await writeLfOnlyWarc([MIXED[2]!]);
    const entries = await read(Buffer.concat([Buffer.from(broken), good, Buffer.from(broken)]));
    expect(kinds(entries)).toEqual(["malformed", "page https://news.example/a", "malformed"]);
    expect(entries[0]).toMatchObject({
      offset: 0,
      detail: "the HTTP head does not end within the record's Content-Length",
    });
  });
});
