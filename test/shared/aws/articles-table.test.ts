/**
 * The Articles table adapter on DynamoDB Local: the body stored gzip-compressed (record version 3 on),
 * version 2 items still read, and url_variants and the field caps keep the item under 400 KB.
 */
import { randomBytes } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dynamoItemSize } from "../../../bench/cost-model";
import { LocalRuntime } from "../../../infra/local/runtime";
import { ArticlesTable, MAX_URL_VARIANTS } from "../../../shared/aws/articles-table";
import { FIELD_CAPS } from "../../../shared/extract/field-caps";
import { type Article, RECORD_VERSION } from "../../../shared/records";
import { uniquePrefix } from "../../support/unique-prefix";

const article = (variant: string): Article => ({
  record_version: RECORD_VERSION,
  article_id: "a1",
  url: "https://news.example/home",
  url_variants: [variant],
  source_id: "s",
  collected_at: "2026-12-01T00:00:00.000Z",
  http_status: 200,
  raw_key: null,
  truncated: null,
  extractor_version: "x",
  revision_count: 0,
  revisions: [],
  canonical_from_page: "https://news.example/home",
  headline: "H",
  headline_declared: null,
  kicker: null,
  body: "b".repeat(1000),
  publication: "P",
  section: null,
  authors: [],
  credit: [],
  published_at: null,
  published_day: null,
  published_at_source: null,
  published_at_structured: null,
  date_flag: "missing",
  date_order_flag: null,
  modified_at: null,
  language: null,
  language_source: null,
  is_accessible_for_free: null,
  word_count: 1,
});

describe("ArticlesTable", () => {
  let runtime: LocalRuntime;
  let table: ArticlesTable;
  beforeAll(async () => {
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix("articles") });
    table = new ArticlesTable(runtime.clients.doc, runtime.resources.tables.articles);
  });
  afterAll(async () => runtime?.close());

  it("keeps the first MAX_URL_VARIANTS URLs of pages that all name one canonical, and still writes the article", async () => {
    // Every page of a site naming its home page as canonical: 2 KB URLs would pass 400 KB at ~200 pages.
    for (let i = 0; i < MAX_URL_VARIANTS + 5; i++) {
      const variant = `https://news.example/${String(i).padStart(4, "0")}/${"x".repeat(2000)}`;
      expect(await table.put({ ...article(variant), headline: `H${i}` })).toBe("stored");
    }
    const stored = await table.get("a1");
    expect(stored?.url_variants).toHaveLength(MAX_URL_VARIANTS);
    expect(stored?.headline).toBe(`H${MAX_URL_VARIANTS + 4}`);
  });

  /** Text gzip cannot shrink much: random printable ASCII (~6.6 bits a byte). */
  const incompressible = (bytes: number) =>
    [...randomBytes(bytes)].map((b) => String.fromCharCode(0x20 + (b % 95))).join("");

  it("answers too_large, writing nothing, when the item would pass DynamoDB's 400 KB", async () => {
    // 600 KB of text that compresses to ~500 KB (420 KB of one letter now compresses to 1 KB and fits).
    const body = incompressible(600_000);
    expect(await table.put({ ...article("https://news.example/b"), article_id: "a2", body })).toBe(
      "too_large",
    );
    expect(await table.get("a2")).toBeNull();
  });

  const raw = async (article_id: string) =>
    (
      await runtime.clients.doc.send(
        new GetCommand({ TableName: runtime.resources.tables.articles, Key: { article_id } }),
      )
    ).Item!;

  it("stores the body as gzip bytes with body_encoding, record_version 6, and reads the text back", async () => {
    const body = "The port reopened on Monday. ".repeat(200);
    expect(await table.put({ ...article("https://news.example/c"), article_id: "a3", body })).toBe("stored");
    const item = await raw("a3");
    expect(item).toMatchObject({ record_version: RECORD_VERSION, body_encoding: "gzip" });
    expect(item.body).toBeInstanceOf(Uint8Array);
    expect(gunzipSync(item.body as Uint8Array).toString("utf8")).toBe(body);
    expect((item.body as Uint8Array).byteLength).toBeLessThan(body.length / 20);
    expect((await table.get("a3"))?.body).toBe(body);
  });

  it("reads a version 2 item (body a string), and a re-fetch rewrites it as the current version", async () => {
    const {
      url_variants,
      published_at_structured: _s,
      ...v2
    } = {
      ...article("https://news.example/d"),
      article_id: "a4",
      record_version: 2,
    };
    await runtime.clients.doc.send(
      new PutCommand({
        TableName: runtime.resources.tables.articles,
        Item: { ...v2, url_variants: new Set(url_variants), collected_day: "2026-12-01" },
      }),
    );
    expect(await table.get("a4")).toEqual({
      ...article("https://news.example/d"),
      article_id: "a4",
      record_version: 2,
    });
    expect(await table.put({ ...article("https://news.example/d"), article_id: "a4" })).toBe("stored");
    expect(await raw("a4")).toMatchObject({ record_version: RECORD_VERSION, body_encoding: "gzip" });
    expect((await table.get("a4"))?.body).toBe(article("x").body);
  });

  it("stores an article with every field at its cap, worst-case text, under the 400 KB limit", async () => {
    // 3-byte UTF-8 characters wherever a cap counts characters, a body of incompressible text at its
    // byte cap, and the most URL variants of the longest length: the budget of field-caps.ts.
    const cjk = (n: number) => "港".repeat(n);
    const url = (i: number) =>
      `https://news.example/${String(i).padStart(4, "0")}/${"u".repeat(FIELD_CAPS.urlChars - 26)}`;
    const full: Article = {
      ...article(url(0)),
      article_id: "a5",
      url: url(0),
      canonical_from_page: url(99),
      url_variants: Array.from({ length: MAX_URL_VARIANTS }, (_, i) => url(i)),
      headline: cjk(FIELD_CAPS.headlineChars),
      headline_declared: cjk(FIELD_CAPS.headlineChars),
      kicker: cjk(FIELD_CAPS.labelChars),
      publication: cjk(FIELD_CAPS.labelChars),
      section: cjk(FIELD_CAPS.labelChars),
      authors: Array.from({ length: FIELD_CAPS.authors }, () => cjk(FIELD_CAPS.authorChars)),
      credit: Array.from({ length: FIELD_CAPS.authors }, () => cjk(FIELD_CAPS.authorChars)),
      language: "x".repeat(FIELD_CAPS.languageChars),
      body: incompressible(FIELD_CAPS.bodyBytes),
      truncated: [
        "headline",
        "body",
        "authors",
        "publication",
        "section",
        "headline_declared",
        "kicker",
        "credit",
      ],
      published_at_structured: "2026-11-28T23:59:59.999Z",
    };
    expect(await table.put(full)).toBe("stored");
    const size = dynamoItemSize(await raw("a5"));
    // ~233 KB: the compressed body (~165 KB) can never pass its text's 200,000 bytes by more than
    // gzip's few bytes per 64 KB block, so the caps' 269 KB bound (record version 5 added the declared
    // headline, the kicker and the credit) holds with 130 KB to spare.
    expect(size).toBeLessThan(270_000);
    expect(await table.get("a5")).toEqual({
      ...full,
      url_variants: [...full.url_variants].sort(),
    });
  });
});
