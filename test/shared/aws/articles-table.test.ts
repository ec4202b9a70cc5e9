/** The Articles table adapter on DynamoDB Local: url_variants stay bounded, so the item does too. */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { ArticlesTable, MAX_URL_VARIANTS } from "../../../shared/aws/articles-table";
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
  canonical_from_page: "https://news.example/home",
  headline: "H",
  body: "b".repeat(1000),
  publication: "P",
  section: null,
  authors: [],
  published_at: null,
  published_day: null,
  published_at_source: null,
  date_flag: "missing",
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

  it("answers too_large, writing nothing, when the item would pass DynamoDB's 400 KB", async () => {
    expect(
      await table.put({ ...article("https://news.example/b"), article_id: "a2", body: "x".repeat(420_000) }),
    ).toBe("too_large");
    expect(await table.get("a2")).toBeNull();
  });
});
