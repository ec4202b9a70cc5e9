import { describe, expect, it } from "vitest";
import type { RawSample } from "../../../shared/crawl/ports";
import { reextract, type SampleReport } from "../../../shared/crawl/reextract";
import { extractArticle } from "../../../shared/extract/article";

const html = `<html><body><article><h1>Kept</h1><p>${"word ".repeat(100)}</p></article></body></html>`;
const sample = (id: string): RawSample => ({
  key: `raw/${id}.html.gz`,
  url: `https://news.example/${id}`,
  collected_at: "2026-12-01T00:00:00Z",
  html,
});

async function* samples(): AsyncGenerator<RawSample> {
  yield sample("a");
  yield sample("b");
}

describe("reextract", () => {
  it("reports a sample the extractor fails on with its error and goes on with the next", async () => {
    let calls = 0;
    const flaky = (input: Parameters<typeof extractArticle>[0]) => {
      if (++calls === 1) throw new Error("extractor failed: RangeError: boom");
      return extractArticle(input);
    };
    const out: SampleReport[] = [];
    for await (const r of reextract(samples(), async () => null, flaky)) out.push(r);
    expect(out.map((r) => [r.article_id, r.error ?? null, r.extraction?.headline ?? null])).toEqual([
      ["a", "extractor failed: RangeError: boom", null],
      ["b", null, "Kept"],
    ]);
  });

  it("compares record version 5's fields: the declared headline, the kicker, authors and credit", async () => {
    const page = `<html><head><meta property="og:title" content="Politics: Parliament passes the budget"></head><body><article>
      <h1>Parliament passes the budget</h1><p class="byline">By Jane Roe and AP</p><p>${"word ".repeat(100)}</p></article></body></html>`;
    const one = async function* (): AsyncGenerator<RawSample> {
      yield { ...sample("a"), html: page };
    };
    const fresh = extractArticle({ html: page, url: "https://news.example/a" });
    // The article as an extractor of record version 4 stored it: none of the new fields.
    const { headline_declared, kicker, credit, ...v4 } = fresh;
    expect([headline_declared, kicker, credit]).toEqual([
      "Politics: Parliament passes the budget",
      "Politics",
      ["AP"],
    ]);
    const stored = { ...v4, authors: ["Jane Roe", "AP"] };
    const out: SampleReport[] = [];
    for await (const r of reextract(one(), async () => stored)) out.push(r);
    expect(out[0]!.changes).toEqual([
      { field: "headline_declared", before: undefined, after: "Politics: Parliament passes the budget" },
      { field: "kicker", before: undefined, after: "Politics" },
      { field: "authors", before: ["Jane Roe", "AP"], after: ["Jane Roe"] },
      { field: "credit", before: undefined, after: ["AP"] },
    ]);
  });

  it("compares record version 6's date order flag: a day read in the other order is reported with it", async () => {
    const page = `<html lang="en-US"><body><article><h1>Parliament passes the budget</h1>
      <p class="date">10/11/2026</p><p>${"word ".repeat(100)}</p></article></body></html>`;
    const url = "https://news.example/2026/11/10/budget";
    const one = async function* (): AsyncGenerator<RawSample> {
      yield { ...sample("a"), url, html: page };
    };
    const fresh = extractArticle({ html: page, url, now: new Date("2026-12-01T00:00:00Z") });
    expect([fresh.published_day, fresh.date_order_flag]).toEqual(["2026-11-10", "swapped"]);
    // As a version-5 extractor stored it: the locale's reading, and no flag field.
    const { date_order_flag: _o, ...v5 } = fresh;
    const stored = { ...v5, published_day: "2026-10-11" };
    const out: SampleReport[] = [];
    for await (const r of reextract(one(), async () => stored)) out.push(r);
    expect(out[0]!.changes).toEqual([
      { field: "published_day", before: "2026-10-11", after: "2026-11-10" },
      { field: "date_order_flag", before: undefined, after: "swapped" },
    ]);
  });
});
