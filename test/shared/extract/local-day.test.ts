import { describe, expect, it } from "vitest";
import { extractArticle } from "../../../shared/extract/article";
import type { StatedDate } from "../../../shared/extract/date-parse";
import { dayInZone, localDay, statedLocalDay } from "../../../shared/extract/local-day";
import { countryZones } from "../../../shared/extract/page-country";

/** 23:30 UTC on the 1st: 08:30 on the 2nd in Tokyo, 18:30 on the 1st in New York. */
const utc: StatedDate = { day: "2026-03-01", instant: "2026-03-01T23:30:00.000Z", hasTime: true, offset: 0 };

describe("localDay", () => {
  it("takes the day of another source stating the same moment with an offset", () => {
    const tokyo: StatedDate = { day: "2026-03-02", instant: utc.instant, hasTime: true, offset: 540 };
    expect(localDay(utc, [tokyo]).day).toBe("2026-03-02");
  });

  it("takes the day of a zoneless wall-clock time a whole number of quarter hours away", () => {
    const wall: StatedDate = { day: "2026-03-02", instant: null, hasTime: true, clock: 8.5 * 3600 };
    expect(localDay(utc, [wall]).day).toBe("2026-03-02");
    const odd: StatedDate = { day: "2026-03-02", instant: null, hasTime: true, clock: 8.5 * 3600 + 420 };
    expect(localDay(utc, [odd]).day).toBe("2026-03-01");
  });

  it("leaves a date stated with its own offset alone", () => {
    const own: StatedDate = { ...utc, offset: 60 };
    const other: StatedDate = { day: "2026-03-02", instant: utc.instant, hasTime: true, offset: 540 };
    expect(localDay(own, [other])).toBe(own);
  });
});

describe("statedLocalDay", () => {
  it("takes the neighbouring day the page shows when a real zone puts the instant on it", () => {
    expect(statedLocalDay(utc, () => ({ day: "2026-03-02", instant: null, hasTime: false })).day).toBe(
      "2026-03-02",
    );
  });

  it("keeps the UTC day when no zone (UTC−12 … UTC+14) reaches the shown day", () => {
    expect(statedLocalDay(utc, () => ({ day: "2026-03-04", instant: null, hasTime: false })).day).toBe(
      "2026-03-01",
    );
  });

  it("takes the shown day only when a zone of the page's country puts the instant on it", () => {
    const shown = () => ({ day: "2026-03-02", instant: null, hasTime: false });
    // 23:30 UTC is the 2nd in Tokyo, the 1st everywhere in the United States.
    expect(statedLocalDay(utc, shown, () => ["Asia/Tokyo"]).day).toBe("2026-03-02");
    expect(statedLocalDay(utc, shown, () => countryZones("US")).day).toBe("2026-03-01");
  });

  it("does not look for the shown day when the date is not stated in UTC", () => {
    let asked = false;
    statedLocalDay({ ...utc, offset: 60 }, () => {
      asked = true;
      return null;
    });
    expect(asked).toBe(false);
  });
});

describe("the source's time zone", () => {
  it("gives the day of an instant in an IANA zone, null for a zone the runtime does not know", () => {
    expect(dayInZone("2026-01-10T03:30:00Z", "America/New_York")).toBe("2026-01-09");
    expect(dayInZone("2026-01-10T23:30:00Z", "Asia/Tokyo")).toBe("2026-01-11");
    expect(dayInZone("2026-01-10T23:30:00Z", "Mars/Olympus_Mons")).toBeNull();
  });

  it("makes published_day the day of published_at in that zone, not another date on the page", () => {
    const page = `<html lang="en"><head><meta property="article:published_time" content="2026-01-10T13:00:00Z"></head>
      <body><article><h1>Headline of the story</h1><p class="date">January 11, 2026</p><p>${"Words of the story. ".repeat(30)}</p></article></body></html>`;
    const at = (timeZone?: string) =>
      extractArticle({
        html: page,
        url: "https://paper.com/2026/01/11/story",
        now: new Date("2026-02-01T00:00:00Z"),
        timeZone,
      });
    // 13:00 UTC is 8 a.m. in New York: the 10th there, whatever day the URL and the byline name.
    expect([at("America/New_York").published_at, at("America/New_York").published_day]).toEqual([
      "2026-01-10T13:00:00Z",
      "2026-01-10",
    ]);
    expect(at("Pacific/Kiritimati").published_day).toBe("2026-01-11");
  });

  it("keeps the day written for a time written as midnight exactly (a date a CMS wrote as an instant)", () => {
    const page = `<html><head><meta property="article:published_time" content="2020-01-10T00:00:00+00:00"></head>
      <body><article><h1>Headline of the story</h1><p>${"Words of the story. ".repeat(30)}</p></article></body></html>`;
    const r = extractArticle({
      html: page,
      url: "https://paper.com/story",
      now: new Date("2026-02-01T00:00:00Z"),
      timeZone: "America/Los_Angeles",
    });
    expect([r.published_at, r.published_day]).toEqual(["2020-01-10T00:00:00Z", "2020-01-10"]);
  });
});

describe("without the source's time zone", () => {
  const page = (lang: string) =>
    `<html lang="${lang}"><head><meta property="article:published_time" content="2026-01-10T13:00:00Z"></head>
      <body><article><h1>Headline of the story</h1><p>${"Words of the story. ".repeat(30)}</p></article></body></html>`;
  const day = (lang: string) =>
    extractArticle({
      html: page(lang),
      url: "https://paper.com/2026/01/11/story",
      now: new Date("2026-02-01T00:00:00Z"),
    }).published_day;

  it("takes the URL's neighbouring day only when a zone of the page's country puts the instant on it", () => {
    // 13:00 UTC on the 10th is the 10th in every US zone; UTC+14 (Kiribati) would make it the 11th.
    expect(day("en-US")).toBe("2026-01-10");
    expect(day("en")).toBe("2026-01-11");
    expect(day("en-NZ")).toBe("2026-01-11");
  });
});
