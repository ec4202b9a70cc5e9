import { describe, expect, it } from "vitest";
import type { StatedDate } from "../../../shared/extract/date-parse";
import { localDay, statedLocalDay } from "../../../shared/extract/local-day";

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

  it("does not look for the shown day when the date is not stated in UTC", () => {
    let asked = false;
    statedLocalDay({ ...utc, offset: 60 }, () => {
      asked = true;
      return null;
    });
    expect(asked).toBe(false);
  });
});
