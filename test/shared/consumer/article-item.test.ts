/** The Articles item codec: version 3 stores the body gzip-compressed, version 4 adds the structured date
 * the byline overrode, version 5 the declared headline, the kicker and the credit, version 6 the date order
 * flag; version 7 changes only the Fingerprints table; version 2 to 6 items still read. */
import { gzipSync } from "node:zlib";
import { marshall, unmarshall } from "@aws-sdk/util-dynamodb";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ArticleItemError,
  articleItemBody,
  articleItemFields,
  decodeArticleItem,
} from "../../../shared/consumer/article-item";
import { type Article, RECORD_VERSION } from "../../../shared/records";
import { articleRevision } from "../../support/revision-fixtures";

const BODY =
  "Dock workers at the country's three largest container ports voted to end a nine-day strike.\n\nÜber 20 % — 港口";

const article: Article = {
  record_version: RECORD_VERSION,
  article_id: "a1",
  url: "https://harbor.example/world/port-strike-ends",
  url_variants: ["https://harbor.example/world/port-strike-ends"],
  source_id: "harbor-daily",
  collected_at: "2026-12-01T00:00:00.000Z",
  http_status: 200,
  raw_key: null,
  truncated: null,
  extractor_version: "x",
  revision_count: 0,
  revisions: [],
  canonical_from_page: null,
  headline: "Dock workers end nine-day port strike",
  headline_declared: "Port strike: dock workers end nine-day walkout",
  kicker: "Port strike",
  body: BODY,
  publication: "Harbor Daily",
  section: null,
  authors: ["A. Writer"],
  credit: ["Reuters"],
  published_at: "2026-11-30T14:05:00.000Z",
  published_day: "2026-11-30",
  // The byline's date, and the JSON-LD date three days later that it overrode (both kept since v4).
  published_at_source: "text",
  published_at_structured: "2026-12-03T09:00:00.000Z",
  date_flag: null,
  // The page's other dates read the byline's 11/30 the other way round, but fewer of them.
  date_order_flag: "contested",
  modified_at: null,
  language: "en",
  language_source: "html_lang",
  is_accessible_for_free: null,
  word_count: 20,
};

/** The item as the document client returns it: url_variants a string set, collected_day added. */
const currentItem = () => ({
  ...articleItemFields(article),
  url_variants: new Set(article.url_variants),
  collected_day: "2026-12-01",
});

describe("the Articles item codec", () => {
  it("writes the current version: the body as gzip bytes with body_encoding, smaller than its text", () => {
    const item = articleItemFields({ ...article, body: BODY.repeat(40) });
    expect(item.record_version).toBe(8);
    expect(item.body_encoding).toBe("gzip");
    expect(item.body).toBeInstanceOf(Uint8Array);
    expect(item.body.byteLength).toBeLessThan(Buffer.byteLength(BODY.repeat(40)) / 10);
  });

  it("decodes a current item from the SDK (bytes) and from DynamoDB JSON (base64) to the article", () => {
    const expected = article;
    expect(decodeArticleItem(currentItem())).toEqual(expected);
    // An export to S3 or a stream event spells binary as base64 text; unmarshall passes it through.
    const wire = JSON.parse(
      JSON.stringify(marshall(currentItem()), (_k, v) =>
        v?.type === "Buffer" || v instanceof Uint8Array ? Buffer.from(v.data ?? v).toString("base64") : v,
      ),
    );
    expect(typeof wire.body.B).toBe("string");
    expect(decodeArticleItem(unmarshall(wire))).toEqual(expected);
  });

  it("keeps a structured date that is a day, and refuses one that is neither an instant nor a day", () => {
    const day = { ...currentItem(), published_at_structured: "2026-12-03" };
    expect(decodeArticleItem(day).published_at_structured).toBe("2026-12-03");
    const none = { ...currentItem(), published_at_source: "jsonld", published_at_structured: null };
    expect(decodeArticleItem(none).published_at_structured).toBeNull();
    expect(() => decodeArticleItem({ ...currentItem(), published_at_structured: "3 Dec 2026" })).toThrow(
      /article a1: [\s\S]*"published_at_structured"/,
    );
  });

  it("stores revisions only once there are some, and reads them back", () => {
    expect("revisions" in articleItemFields(article)).toBe(false);
    const revision = articleRevision();
    const revised = { ...article, revision_count: 1, revisions: [revision] };
    expect(decodeArticleItem(articleItemFields(revised))).toEqual(revised);
  });

  it("still reads a version 7 and a version 6 item, without revisions (0 and [])", () => {
    expect(RECORD_VERSION).toBe(8);
    for (const version of [6, 7]) {
      const old = { ...currentItem(), record_version: version };
      expect(decodeArticleItem(old)).toEqual({ ...article, record_version: version });
    }
  });

  it("still reads a version 5 item, without the date order flag (null)", () => {
    const { date_order_flag: _o, ...v5 } = { ...currentItem(), record_version: 5 };
    expect(decodeArticleItem(v5)).toEqual({ ...article, record_version: 5, date_order_flag: null });
    expect(() => decodeArticleItem({ ...currentItem(), date_order_flag: "guessed" })).toThrow(
      /"date_order_flag"/,
    );
  });

  it("still reads a version 4 item, without the declared headline, kicker (null) and credit (empty)", () => {
    const {
      headline_declared: _h,
      kicker: _k,
      credit: _c,
      date_order_flag: _o,
      ...v4
    } = { ...currentItem(), record_version: 4 };
    expect(decodeArticleItem(v4)).toEqual({
      ...article,
      record_version: 4,
      date_order_flag: null,
      headline_declared: null,
      kicker: null,
      credit: [],
    });
    expect(() => decodeArticleItem({ ...currentItem(), credit: "Reuters" })).toThrow(/"credit"/);
  });

  it("still reads a version 3 item, without published_at_structured (null), keeping its record_version", () => {
    const {
      published_at_structured: _s,
      headline_declared: _h,
      kicker: _k,
      credit: _c,
      date_order_flag: _o,
      ...v3
    } = {
      ...currentItem(),
      record_version: 3,
    };
    const older = { headline_declared: null, kicker: null, credit: [], date_order_flag: null };
    expect(decodeArticleItem(v3)).toEqual({
      ...article,
      ...older,
      record_version: 3,
      published_at_structured: null,
    });
  });

  it("still reads a version 2 item, its body a string, keeping its record_version", () => {
    const {
      body_encoding: _e,
      published_at_structured: _s,
      headline_declared: _h,
      kicker: _k,
      credit: _c,
      date_order_flag: _o,
      ...rest
    } = currentItem();
    const v2 = { ...rest, record_version: 2, body: BODY };
    expect(decodeArticleItem(v2)).toEqual({
      ...article,
      record_version: 2,
      published_at_structured: null,
      headline_declared: null,
      kicker: null,
      credit: [],
      date_order_flag: null,
    });
    expect(articleItemBody(v2)).toBe(BODY);
  });

  it("round-trips any text, every Unicode plane included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (body) => {
        expect(articleItemBody(articleItemFields({ ...article, body }))).toBe(body);
      }),
    );
  });

  it("refuses, naming the article, another version, another encoding, a body that is not gzip and a bomb", () => {
    const bad = (patch: Record<string, unknown>, message: RegExp) => {
      expect(() => decodeArticleItem({ ...currentItem(), ...patch })).toThrow(ArticleItemError);
      expect(() => decodeArticleItem({ ...currentItem(), ...patch })).toThrow(message);
    };
    bad({ record_version: 1 }, /article a1: record_version 1, this reads 2, 3, 4, 5, 6/);
    bad({ body_encoding: "br" }, /article a1: body is object, body_encoding br: this reads gzip/);
    bad({ body: new TextEncoder().encode("plain text") }, /article a1: body is not gzip of UTF-8 text/);
    bad({ body: gzipSync(Buffer.from([0xff, 0xfe, 0x80])) }, /article a1: body is not gzip of UTF-8 text/);
    // 4 KB of gzip that would expand to 4 MB: refused past 2 MB instead of filling memory.
    bad({ body: gzipSync(Buffer.alloc(4_000_000, 0x61)) }, /article a1: .*larger than 2000000 bytes/);
    bad({ body: 42 }, /article a1: body is number, body_encoding gzip: this reads gzip/);
    bad({ body_encoding: undefined }, /article a1: body is object, body_encoding undefined: this reads gzip/);
    bad({ word_count: "many" }, /article a1: [\s\S]*"word_count"/);
  });
});
