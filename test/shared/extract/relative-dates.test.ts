import { describe, expect, it } from "vitest";
import { extractArticle } from "../../../shared/extract/article";
import { scanRelativeDates } from "../../../shared/extract/relative-dates";
import { PROSE_PARAGRAPH as para } from "../../support/article-html";

const NOW = new Date("2026-12-01T10:37:00Z");
const page = (byline: string, extra = "") =>
  extractArticle({
    html: `<html><head></head><body><article><h1>Headline of the story</h1><p class="byline">${byline}</p><p>${para}</p>${extra}</article></body></html>`,
    url: "https://news.example.org/story",
    now: NOW,
  });

describe('"… ago" dates resolved against the fetch time', () => {
  it.each([
    ["3 hours ago", "2026-12-01T07:00:00Z"],
    ["an hour ago", "2026-12-01T09:00:00Z"],
    ["vor 2 Stunden", "2026-12-01T08:00:00Z"],
    ["vor einer Stunde", "2026-12-01T09:00:00Z"],
    ["il y a 5 minutes", "2026-12-01T10:32:00Z"],
    ["hace 11 horas", "2026-11-30T23:00:00Z"],
    ["há 2 horas", "2026-12-01T08:00:00Z"],
    ["45 minuti fa", "2026-12-01T09:52:00Z"],
    ["3 uur geleden", "2026-12-01T07:00:00Z"],
    ["2 часа назад", "2026-12-01T08:00:00Z"],
    ["منذ ساعتين", "2026-12-01T08:00:00Z"],
    ["منذ ٣ ساعات", "2026-12-01T07:00:00Z"],
    ["۵ ساعت پیش", "2026-12-01T05:00:00Z"],
    ["3時間前", "2026-12-01T07:00:00Z"],
    ["20分钟前", "2026-12-01T10:17:00Z"],
  ])("%s gives an instant to its unit", (text, instant) => {
    const [m] = scanRelativeDates(`Posted ${text} by staff`, NOW);
    expect(m?.date).toMatchObject({ instant, day: instant.slice(0, 10) });
  });

  it.each([
    ["2 days ago", "2026-11-29"],
    ["vor 3 Tagen", "2026-11-28"],
    ["hace 2 días", "2026-11-29"],
    ["il y a un jour", "2026-11-30"],
    ["منذ يومين", "2026-11-29"],
    ["2日前", "2026-11-29"],
  ])("%s gives a day only, never an instant", (text, day) => {
    const [m] = scanRelativeDates(text, NOW);
    expect(m?.date).toEqual({ day, instant: null, hasTime: false });
  });

  it("reads no weeks, months or years (they cannot name a day), nor words that only look alike", () => {
    expect(scanRelativeDates("2 weeks ago, 3 months ago, vor 2 Jahren, il y a 3 ans", NOW)).toEqual([]);
    expect(scanRelativeDates("the 3 hours agony; Hacendado 2 días", NOW)).toEqual([]);
  });

  it("is the page's date only when no absolute date is on it, and not an update's", () => {
    expect(page("By Staff, 3 hours ago")).toMatchObject({
      published_at: "2026-12-01T07:00:00Z",
      published_day: "2026-12-01",
      published_at_source: "text",
      date_flag: null,
    });
    expect(page("vor 2 Tagen")).toMatchObject({ published_at: null, published_day: "2026-11-29" });
    expect(page("3 hours ago", "<p>Published 4 March 2025</p>").published_day).toBe("2025-03-04");
    expect(page("Updated 3 hours ago").published_day).toBeNull();
  });
});
