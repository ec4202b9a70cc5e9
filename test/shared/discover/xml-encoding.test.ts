/**
 * XML 1.0 appendix F on bytes: byte order marks, the zero pattern of the first bytes, the declared
 * encoding; and the feed parser's caps (items, depth, entities, base URI length) on the decoded paths.
 */
import { describe, expect, it } from "vitest";
import { parseFeed } from "../../../shared/discover/feed";
import { decodeXml, wideXmlEncoding } from "../../../shared/discover/xml-encoding";
import { BILLION_LAUGHS } from "../../support/news-server";

const base = "https://news.example";

function utf32(text: string, littleEndian: boolean): Buffer {
  const cps = [...text].map((c) => c.codePointAt(0)!);
  const out = Buffer.alloc(cps.length * 4);
  for (const [i, cp] of cps.entries()) {
    if (littleEndian) out.writeUInt32LE(cp, i * 4);
    else out.writeUInt32BE(cp, i * 4);
  }
  return out;
}

function utf16be(text: string): Buffer {
  return Buffer.from(text, "utf16le").swap16();
}

const BOMS = {
  "utf-16le": Buffer.from([0xff, 0xfe]),
  "utf-16be": Buffer.from([0xfe, 0xff]),
  "utf-32le": Buffer.from([0xff, 0xfe, 0, 0]),
  "utf-32be": Buffer.from([0, 0, 0xfe, 0xff]),
};
const ENCODE = {
  "utf-16le": (t: string) => Buffer.from(t, "utf16le"),
  "utf-16be": utf16be,
  "utf-32le": (t: string) => utf32(t, true),
  "utf-32be": (t: string) => utf32(t, false),
};

const rss = (items: string, head = '<?xml version="1.0"?>') =>
  `${head}<rss version="2.0"><channel>${items}</channel></rss>`;
const item = (n: number, extra = "") =>
  `<item><title>Nº ${n} 📰</title><link>${base}/${n}</link>${extra}</item>`;

describe("decodeXml", () => {
  for (const [encoding, encode] of Object.entries(ENCODE)) {
    it(`${encoding}: with a BOM, without one, declared or not, without a declaration at all`, () => {
      const text = rss(item(1));
      const bom = BOMS[encoding as keyof typeof BOMS];
      for (const bytes of [Buffer.concat([bom, encode(text)]), encode(text), encode(rss(item(1), ""))]) {
        expect(wideXmlEncoding(bytes)?.encoding).toBe(encoding);
        expect(decodeXml(bytes).text.replace(/^<\?xml version="1.0"\?>/, "")).toBe(rss(item(1), ""));
      }
    });
  }

  it("UTF-32LE's mark (FF FE 00 00) is told from UTF-16LE's (FF FE)", () => {
    expect(wideXmlEncoding(Buffer.concat([BOMS["utf-16le"], ENCODE["utf-16le"]("<")]))).toEqual({
      encoding: "utf-16le",
      bom: 2,
    });
    expect(wideXmlEncoding(Buffer.concat([BOMS["utf-32le"], ENCODE["utf-32le"]("<")]))).toEqual({
      encoding: "utf-32le",
      bom: 4,
    });
  });

  it("ASCII-compatible bytes: the HTTP charset, then the declaration; a utf-16 label on them is ignored", () => {
    const latin1 = Buffer.from('<?xml version="1.0" encoding="iso-8859-1"?><r>caf\xe9</r>', "latin1");
    expect(decodeXml(latin1)).toEqual({ text: expect.stringContaining("café"), encoding: "windows-1252" });
    const utf8 = Buffer.from('<?xml version="1.0"?><r>café</r>');
    expect(decodeXml(utf8, "application/xml; charset=utf-16").text).toContain("café");
    expect(decodeXml(utf8, "text/xml; charset=utf-8").encoding).toBe("utf-8");
    expect(wideXmlEncoding(utf8)).toBeNull();
  });

  it("UTF-32 out of range, surrogates and a cut last code point become U+FFFD, never a throw", () => {
    const bad = Buffer.concat([utf32("<r>", false), Buffer.from([0, 0x11, 0, 0, 0, 0, 0xd8, 0, 0, 0])]);
    expect(decodeXml(bad).text).toBe("<r>\ufffd\ufffd\ufffd");
  });
});

describe("the feed caps on the decoded paths", () => {
  it("items: a UTF-32 feed past maxItems is counted, not built", () => {
    const items = Array.from({ length: 50 }, (_, i) => item(i)).join("");
    const feed = parseFeed(ENCODE["utf-32be"](rss(items)), base, { maxItems: 10 });
    expect(feed.items).toHaveLength(10);
    expect(feed.skipped).toBe(40);
    expect(feed.items[9]?.title).toBe("Nº 9 📰");
  });

  it("entities: a UTF-16 billion laughs is not expanded", () => {
    const feed = parseFeed(ENCODE["utf-16be"](BILLION_LAUGHS), base);
    expect(feed.items.map((i) => i.title)).toEqual(["&lol9;"]);
    expect(feed.damage).toEqual(["DTD entity declaration ignored (entities are never expanded) (×10)"]);
  });

  it("depth: 100,000 nested xml:base elements in UTF-16 are skipped past maxDepth, the entries around kept", () => {
    const chain = `${'<x xml:base="a/">'.repeat(100_000)}${item(2)}${"</x>".repeat(100_000)}`;
    const feed = parseFeed(Buffer.from(rss(item(1) + chain + item(3)), "utf16le"), base);
    expect(feed.items.map((i) => i.url)).toEqual([`${base}/1`, `${base}/3`]);
    expect(feed.damage).toEqual(["elements nested deeper than 64 skipped"]);
  });

  it("base URI length: nested xml:base stops growing at 8,192 characters", () => {
    const segment = `${"s".repeat(1_000)}/`;
    const open = (depth: number) => `<x xml:base="${segment}">`.repeat(depth);
    const entry = `<entry><link href="page"/></entry>`;
    const atom = (depth: number) =>
      `<feed xmlns="http://www.w3.org/2005/Atom">${open(depth)}${entry}${"</x>".repeat(depth)}</feed>`;
    const [short] = parseFeed(atom(3), `${base}/f/`).items;
    expect(short?.url).toBe(`${base}/f/${segment.repeat(3)}page`);
    const deep = parseFeed(atom(50), `${base}/f/`);
    expect(deep.damage).toEqual(["xml:base longer than 8192 characters ignored (×42)"]);
    const [long] = deep.items;
    expect(long?.url.length).toBeLessThanOrEqual(8_192 + "page".length);
    expect(long?.url).toMatch(/^https:\/\/news\.example\/f\/(s{1000}\/)+page$/);
  });
});
