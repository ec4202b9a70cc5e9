import { describe, expect, it } from "vitest";
import { solarHijriToGregorian } from "../../../shared/dates/persian-calendar";
import { parseStatedDate, scanDates } from "../../../shared/extract/date-parse";

const iso = (g: { y: number; m: number; d: number } | null): string | null =>
  g && `${g.y}-${String(g.m).padStart(2, "0")}-${String(g.d).padStart(2, "0")}`;

describe("Solar Hijri to Gregorian", () => {
  it.each([
    [1403, 1, 1, "2024-03-20"],
    [1404, 1, 1, "2025-03-21"],
    [1403, 9, 12, "2024-12-02"],
    [1399, 1, 1, "2020-03-20"],
    [1400, 1, 1, "2021-03-21"],
    [1357, 11, 22, "1979-02-11"],
    [1402, 7, 1, "2023-09-23"],
    [1402, 10, 1, "2023-12-22"],
    [1402, 12, 29, "2024-03-19"],
    [1403, 12, 30, "2025-03-20"],
  ])("%i/%i/%i is %s", (y, m, d, day) => {
    expect(iso(solarHijriToGregorian(y, m, d))).toBe(day);
  });

  it("rejects days a month lacks (Esfand 30 of a common year) and years outside 1300–1410", () => {
    expect(solarHijriToGregorian(1402, 12, 30)).toBeNull();
    expect(solarHijriToGregorian(1403, 7, 31)).toBeNull();
    expect(solarHijriToGregorian(1445, 5, 12)).toBeNull();
    expect(solarHijriToGregorian(1299, 1, 1)).toBeNull();
  });

  it("maps consecutive days to consecutive days across every year read", () => {
    let prev = Date.UTC(1921, 2, 20);
    let gaps = 0;
    for (let y = 1300; y <= 1410; y++)
      for (let m = 1; m <= 12; m++)
        for (let d = 1; d <= 31; d++) {
          const g = solarHijriToGregorian(y, m, d);
          if (!g) continue;
          const t = Date.UTC(g.y, g.m - 1, g.d);
          if (t - prev !== 86_400_000) gaps++;
          prev = t;
        }
    expect(gaps).toBe(0);
    expect(new Date(prev).toISOString().slice(0, 10)).toBe("2032-03-19");
  });
});

describe("Persian dates on a page", () => {
  it("reads numeric and month-name forms in Persian or ASCII digits", () => {
    expect(parseStatedDate("۱۴۰۳/۰۹/۱۲")?.day).toBe("2024-12-02");
    expect(parseStatedDate("1403-09-12")?.day).toBe("2024-12-02");
    expect(parseStatedDate("۱۲/۰۹/۱۴۰۳")?.day).toBe("2024-12-02");
    expect(parseStatedDate("12 آذر 1403")?.day).toBe("2024-12-02");
    expect(parseStatedDate("سه‌شنبه ۱۲ آذر ماه ۱۴۰۳ - ۱۰:۳۰")).toMatchObject({
      day: "2024-12-02",
      clock: 37800,
    });
    expect(parseStatedDate("۵ اردی‌بهشت ۱۴۰۲")?.day).toBe("2023-04-25");
    expect(parseStatedDate("5 ارديبهشت 1402")?.day).toBe("2023-04-25");
    expect(scanDates("انتشار: ۱ فروردین ۱۴۰۴").map((m) => m.date.day)).toEqual(["2025-03-21"]);
  });

  it("leaves Gregorian dates and lunar Hijri years alone", () => {
    expect(parseStatedDate("2024/09/12")?.day).toBe("2024-09-12");
    expect(parseStatedDate("12 آذار 2024")?.day).toBe("2024-03-12");
    expect(parseStatedDate("1445/05/12")).toBeNull();
    expect(parseStatedDate("12 آذر 1445")).toBeNull();
  });
});
