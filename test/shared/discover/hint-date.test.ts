import { describe, expect, it } from "vitest";
import { exactIso, latestPossibleMs, looseIso, parseHintDate } from "../../../shared/discover/hint-date";

describe("parseHintDate", () => {
  const exact: [string, string][] = [
    ["2026-12-02T10:00:00Z", "2026-12-02T10:00:00.000Z"],
    ["2026-12-02T10:00:00.123+02:00", "2026-12-02T08:00:00.123Z"],
    ["2026-12-02T10:00+0530", "2026-12-02T04:30:00.000Z"],
    ["2026-12-02 10:00:00Z", "2026-12-02T10:00:00.000Z"],
    ["Tue, 01 Dec 2026 21:30:00 EST", "2026-12-02T02:30:00.000Z"],
    ["Tue, 01 Dec 2026 21:30:00 -0500", "2026-12-02T02:30:00.000Z"],
    ["2 Dec 2026 09:15 +0100", "2026-12-02T08:15:00.000Z"],
    ["Wed, 02 Dec 26 10:00:00 GMT", "2026-12-02T10:00:00.000Z"],
    ["Wednesday, 02-Dec-2026 10:00:00 UTC", "2026-12-02T10:00:00.000Z"],
    ["Mon, 02 December 2026 10:00:00 GMT", "2026-12-02T10:00:00.000Z"],
    ["Wed, 2 Dec 2026 10:00:00 GMT+2", "2026-12-02T08:00:00.000Z"],
    ["Wed, 02 Dec 2026 10:00:00 +0000 (UTC)", "2026-12-02T10:00:00.000Z"],
  ];
  for (const [input, iso] of exact) {
    it(`${input} → ${iso}`, () => {
      const d = parseHintDate(input);
      expect(d?.precision).toBe("exact");
      expect(exactIso(d)).toBe(iso);
    });
  }

  it("keeps dates without a timezone for filtering only", () => {
    const local = parseHintDate("Wed, 02 Dec 2026 10:00:00");
    expect(local?.precision).toBe("local");
    expect(exactIso(local)).toBeNull();
    expect(looseIso(local)).toBe("2026-12-02T10:00:00.000Z");
    expect(latestPossibleMs(local!)).toBe(Date.parse("2026-12-03T00:00:00Z"));
    const day = parseHintDate("2026-12-02");
    expect(day?.precision).toBe("day");
    expect(latestPossibleMs(day!)).toBe(Date.parse("2026-12-03T14:00:00Z"));
  });

  for (const junk of [
    "",
    "yesterday",
    "2026-13-01",
    "2026-02-30",
    "Wed, 32 Dec 2026 10:00:00 GMT",
    "Wed, 02 Foo 2026 10:00 GMT",
    "02 Dec 2026 10:00 XYZ",
    "1890-01-01",
    null,
    {},
  ]) {
    it(`rejects ${JSON.stringify(junk)}`, () => {
      expect(parseHintDate(junk)).toBeNull();
    });
  }
});
