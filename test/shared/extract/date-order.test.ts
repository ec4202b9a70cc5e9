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
  it("reads month first only for US English, from the page or the source's language", () => {
    expect(readsDayFirst("en-US", null)).toBe(false);
    expect(readsDayFirst("en_us", null)).toBe(false);
    expect(readsDayFirst(null, "en-US")).toBe(false);
    expect(readsDayFirst("en-GB", null)).toBe(true);
    expect(readsDayFirst("en", "en")).toBe(true);
    expect(readsDayFirst(null, null)).toBe(true);
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
});
