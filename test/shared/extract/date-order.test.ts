import { describe, expect, it } from "vitest";
import { extractArticle } from "../../../shared/extract/article";
import { readsDayFirst } from "../../../shared/extract/date-order";
import { PROSE_PARAGRAPH as para } from "../../support/article-html";

const NOW = new Date("2026-12-01T00:00:00Z");
const day = (lang: string | null, dateline: string, languageHint?: string) =>
  extractArticle({
    html: `<html${lang ? ` lang="${lang}"` : ""}><head></head><body><article><h1>Headline of the story</h1><p class="date">${dateline}</p><p>${para}</p></article></body></html>`,
    url: "https://news.example.org/story",
    now: NOW,
    languageHint,
  }).published_day;

describe("day and month order of numeric dates", () => {
  it("reads month first for a US locale: the page's, og:locale's, the source's, else its domain's country", () => {
    const first = (htmlLang: string | null, languageHint: string | null, more = {}) =>
      readsDayFirst({ htmlLang, languageHint, ...more });
    expect(first("en-US", null)).toBe(false);
    expect(first("en_us", null)).toBe(false);
    expect(first(null, "en-US")).toBe(false);
    expect(first("es-US", null)).toBe(false);
    expect(first("en-GB", null)).toBe(true);
    expect(first("en", "en")).toBe(true);
    expect(first(null, null)).toBe(true);
    expect(first("en", null, { ogLocale: "en_US" })).toBe(false);
    // The page's own region outranks og:locale and the domain.
    expect(first("en-GB", null, { ogLocale: "en_US", url: "https://city.gov/news" })).toBe(true);
    expect(first("en", null, { url: "https://www.city.gov/news/1" })).toBe(false);
    expect(first("en", null, { url: "https://paper.us/a" })).toBe(false);
    expect(first("en", null, { url: "https://paper.com/a" })).toBe(true);
    expect(first(null, null, { url: "https://zeitung.de/a" })).toBe(true);
  });

  it("reads a slash date month first on a US English page, day first elsewhere", () => {
    expect(day("en-US", "03/04/2026")).toBe("2026-03-04");
    expect(day(null, "03/04/2026", "en-US")).toBe("2026-03-04");
    expect(day("en-GB", "03/04/2026")).toBe("2026-04-03");
    expect(day("en", "03/04/2026")).toBe("2026-04-03");
    expect(day(null, "03/04/2026")).toBe("2026-04-03");
  });

  it("lets a first or second number over 12 decide, and keeps dotted dates day first", () => {
    expect(day("en-US", "13/04/2026")).toBe("2026-04-13");
    expect(day("en-GB", "04/13/2026")).toBe("2026-04-13");
    expect(day("en-US", "03.04.2026")).toBe("2026-04-03");
  });

  it("reads a slash date in the other order when the page's other dates contradict the locale's reading", () => {
    const page = (url: string, head: string, dateline: string) =>
      extractArticle({
        html: `<html lang="en"><head>${head}</head><body><article><h1>Headline of the story</h1><p class="date">${dateline}</p><p>${para}</p></article></body></html>`,
        url,
        now: NOW,
      });
    // No region, no country: day first, unless the URL's date says otherwise.
    expect(page("https://paper.com/news/story", "", "10/11/2026").published_day).toBe("2026-11-10");
    expect(page("https://paper.com/2026/10/11/story", "", "10/11/2026").published_day).toBe("2026-10-11");
    // A byline read as 1 September would override the structured 9 January; read as 9 January it agrees.
    const ld = `<script type="application/ld+json">${JSON.stringify({ "@type": "NewsArticle", datePublished: "2026-01-09T14:00:00-05:00" })}</script>`;
    const r = page("https://paper.com/news/story", ld, "01/09/2026");
    expect([r.published_day, r.published_at, r.published_at_structured]).toEqual([
      "2026-01-09",
      "2026-01-09T19:00:00Z",
      null,
    ]);
    // A feed's date is evidence too.
    const hinted = extractArticle({
      html: `<html lang="en"><body><article><h1>Headline of the story</h1><p class="date">10/11/2026</p><p>${para}</p></article></body></html>`,
      url: "https://paper.com/news/story",
      now: NOW,
      publishedHint: "2026-10-11T12:00:00Z",
    });
    expect(hinted.published_day).toBe("2026-10-11");
  });

  it("flags the date when the page's other dates disagree on its order: swapped when they win, contested when not", () => {
    const page = (url: string, lang: string, dateline: string, publishedHint?: string) =>
      extractArticle({
        html: `<html lang="${lang}"><body><article><h1>Headline of the story</h1><p class="date">${dateline}</p><p>${para}</p></article></body></html>`,
        url,
        now: NOW,
        publishedHint,
      });
    const flagged = (r: ReturnType<typeof page>) => [r.published_day, r.date_order_flag];
    // A US page read month first, its URL saying 10 November: the URL wins, and the record says so.
    expect(flagged(page("https://paper.com/2026/11/10/story", "en-US", "10/11/2026"))).toEqual([
      "2026-11-10",
      "swapped",
    ]);
    // The URL says 10 November, the feed 11 October: one each, the locale's reading stays, contested.
    expect(
      flagged(page("https://paper.com/2026/11/10/story", "en-US", "10/11/2026", "2026-10-11T12:00:00Z")),
    ).toEqual(["2026-10-11", "contested"]);
    // Agreeing evidence, no evidence, or a date that cannot be read two ways: no flag.
    expect(flagged(page("https://paper.com/2026/10/11/story", "en-US", "10/11/2026"))).toEqual([
      "2026-10-11",
      null,
    ]);
    expect(flagged(page("https://paper.com/news/story", "en-US", "10/11/2026"))).toEqual([
      "2026-10-11",
      null,
    ]);
    expect(flagged(page("https://paper.com/2026/11/10/story", "en-US", "10/13/2026"))).toEqual([
      "2026-10-13",
      null,
    ]);
  });
});
