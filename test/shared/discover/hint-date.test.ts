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

/**
 * feedparser's date tests (kurtmckee/feedparser tests/test_date_parsers.py: the RFC 822, W3C-DTF and
 * asctime cases), ported as data: input → the instant feedparser gives (UTC), or null when it refuses.
 * Where we deliberately differ, `ours` says what we give and `why`.
 */
const FEEDPARSER_DATES: { input: string; feedparser: string | null; ours?: string | null; why?: string }[] = [
  { input: "Thu, 30 Apr 2015 08:57:00 MET", feedparser: "2015-04-30T07:57:00Z" },
  { input: "Thu, 30 Apr 2015 08:57:00 MEST", feedparser: "2015-04-30T06:57:00Z" },
  {
    input: "Thu, 01 Jan 0100 00:00:01 +0100",
    feedparser: "0099-12-31T23:00:01Z",
    ours: null,
    why: "news dates before 1970 are typos",
  },
  { input: "Thu, 01 Jan 04 19:48:21 GMT", feedparser: "2004-01-01T19:48:21Z" },
  { input: "Thu, 01 Jan 2004 19:48:21 GMT", feedparser: "2004-01-01T19:48:21Z" },
  { input: "Thu,  5 Apr 2012 10:00:00 GMT", feedparser: "2012-04-05T10:00:00Z" },
  { input: "Wed, 19 Aug 2009 18:28:00 Etc/GMT", feedparser: "2009-08-19T18:28:00Z" },
  { input: "Wed, 19 Feb 2012 22:40:00 GMT-01:01", feedparser: "2012-02-19T23:41:00Z" },
  { input: "Wed, 19 Feb 2012 22:40:00 -01:01", feedparser: "2012-02-19T23:41:00Z" },
  { input: "Mon, 13 Feb, 2012 06:28:00 UTC", feedparser: "2012-02-13T06:28:00Z" },
  { input: "Thu, 01 Jan 2004 00:00 GMT", feedparser: "2004-01-01T00:00:00Z" },
  { input: "Thu, 01 Jan 2004", feedparser: "2004-01-01T00:00:00Z" },
  { input: "Mon, 26 January 2004 16:31:00 AT", feedparser: "2004-01-26T20:31:00Z" },
  { input: "Mon, 26 January 2004 16:31:00 ET", feedparser: "2004-01-26T21:31:00Z" },
  { input: "Mon, 26 January 2004 16:31:00 CT", feedparser: "2004-01-26T22:31:00Z" },
  { input: "Mon, 26 January 2004 16:31:00 MT", feedparser: "2004-01-26T23:31:00Z" },
  { input: "Mon, 26 January 2004 16:31:00 PT", feedparser: "2004-01-27T00:31:00Z" },
  { input: "Thu Aug 30 2012 17:26:16 +0200", feedparser: "2012-08-30T15:26:16Z" },
  { input: "Sun, 16 Dec 2012 1:2:3:4 GMT", feedparser: null },
  { input: "Sun, 16 zzz 2012 11:47:32 GMT", feedparser: null },
  { input: "Sun, Dec x 2012 11:47:32 GMT", feedparser: null },
  { input: "Sun, 16 Dec zz 11:47:32 GMT", feedparser: null },
  { input: "Sun, 16 Dec 2012 11:47:32 +zz:00", feedparser: null },
  { input: "Sun, 16 Dec 2012 11:47:32 +00:zz", feedparser: null },
  { input: "Sun, 99 Jun 2009 12:00:00 GMT", feedparser: null },
  { input: "Sun, 31 Dec 9999 23:59:59 -9999", feedparser: null },
  { input: "Sun Jan  4 16:29:06 2004", feedparser: "2004-01-04T16:29:06Z" },
  { input: "Sun Jul 15 01:16:00 +0000 2012", feedparser: "2012-07-15T01:16:00Z" },
  { input: "2003-12-31T10:14:55Z", feedparser: "2003-12-31T10:14:55Z" },
  { input: "2003-12-31T10:14:55-08:00", feedparser: "2003-12-31T18:14:55Z" },
  { input: "2003-12-31T18:14:55+08:00", feedparser: "2003-12-31T10:14:55Z" },
  { input: "2007-04-23T23:25:47.538+10:00", feedparser: "2007-04-23T13:25:47.538Z" },
  { input: "2003-12-31", feedparser: "2003-12-31T00:00:00Z" },
  { input: "2003-12", feedparser: "2003-12-01T00:00:00Z", ours: null, why: "a month is too coarse a hint" },
  { input: "2003", feedparser: "2003-01-01T00:00:00Z", ours: null, why: "a year is too coarse a hint" },
  { input: "2004-02-28T18:14:55-08:00", feedparser: "2004-02-29T02:14:55Z" },
  { input: "2003-02-28T18:14:55-08:00", feedparser: "2003-03-01T02:14:55Z" },
  { input: "2000-02-28T18:14:55-08:00", feedparser: "2000-02-29T02:14:55Z" },
  { input: "9999-12-31T23:59:59-99:99", feedparser: null },
  { input: "2003-12-31T25:14:55Z", feedparser: null },
  { input: "2003-12-31T10:61:55Z", feedparser: null },
  { input: "2003-12-31T10:14:61Z", feedparser: null },
  { input: "22013", feedparser: null },
  { input: "013", feedparser: null },
  { input: "2013-01-27-01", feedparser: null },
  { input: "2013-01-28T11:30:00-06:00Textra", feedparser: null },
  { input: "2013-xx-27", feedparser: null },
  { input: "2013-01-28T09:xx:00Z", feedparser: null },
  { input: "2013-01-28T09:00:00+00:xx", feedparser: null },
  { input: "2004-07-08 23:56:58 -00:20", feedparser: "2004-07-09T00:16:58Z" },
  { input: "2004-07-08 23:56:58", feedparser: "2004-07-08T23:56:58Z" },
  { input: "2004-07-08 23:56:58.0", feedparser: "2004-07-08T23:56:58Z" },
  { input: "2003-12-31T10:14:55.1234Z", feedparser: "2003-12-31T10:14:55.123Z" },
  { input: "2003-012-31T10:14:55+00:00", feedparser: "2003-12-31T10:14:55Z" },
];

describe("parseHintDate on feedparser's date cases", () => {
  const norm = (iso: string | null) => (iso === null ? null : new Date(iso).toISOString());
  for (const c of FEEDPARSER_DATES) {
    const want = c.ours !== undefined ? c.ours : c.feedparser;
    it(`${c.input} → ${want}${c.why ? ` (feedparser: ${c.feedparser}; ${c.why})` : ""}`, () => {
      // Dates without a zone are read as UTC for comparison, as feedparser does.
      expect(looseIso(parseHintDate(c.input))).toBe(norm(want));
    });
  }

  it("agrees with feedparser on ≥ 90 % of the cases", () => {
    const agree = FEEDPARSER_DATES.filter(
      (c) => looseIso(parseHintDate(c.input)) === norm(c.feedparser),
    ).length;
    expect(agree / FEEDPARSER_DATES.length).toBeGreaterThanOrEqual(0.9);
  });
});

describe("parseHintDate: RFC 822 variants seen in feeds", () => {
  const cases: [string, string, "exact" | "local" | "day"][] = [
    ["Fri,24 Nov 2023 18:28:36 -0000", "2023-11-24T18:28:36.000Z", "exact"],
    ["24 Nov 2023 18:28:36 GMT", "2023-11-24T18:28:36.000Z", "exact"],
    ["Fri, 24 Nov 23 18:28:36 EST", "2023-11-24T23:28:36.000Z", "exact"],
    ["Fri, 24 Nov 2023 18:28:36 EDT", "2023-11-24T22:28:36.000Z", "exact"],
    ["Fri, 24 Nov 2023 18:28:36 PST", "2023-11-25T02:28:36.000Z", "exact"],
    ["Fri, 24 Nov 2023 18:28:36 UT", "2023-11-24T18:28:36.000Z", "exact"],
    ["Fri, 24 Nov 2023 18:28:36 Z", "2023-11-24T18:28:36.000Z", "exact"],
    ["Fri, 24 Nov 2023 18:28:36 N", "2023-11-24T18:28:36.000Z", "exact"], // military: -0000 (RFC 2822 §4.3)
    ["Fri,   24   Nov   2023   18:28:36   +0100", "2023-11-24T17:28:36.000Z", "exact"],
    ["fri, 24 nov 2023 18:28:36 gmt", "2023-11-24T18:28:36.000Z", "exact"],
    ["Friday, 24-Nov-23 18:28:36 GMT", "2023-11-24T18:28:36.000Z", "exact"],
    ["2023-11-24T18:28:36+01:00", "2023-11-24T17:28:36.000Z", "exact"],
    ["2023-11-24T18:28:36", "2023-11-24T18:28:36.000Z", "local"],
    ["Fri, 24 Nov 2023", "2023-11-24T00:00:00.000Z", "day"],
    [
      "Fri Nov 24 2023 18:28:36 GMT+0100 (Central European Standard Time)",
      "2023-11-24T17:28:36.000Z",
      "exact",
    ],
  ];
  for (const [input, iso, precision] of cases) {
    it(`${input} → ${iso} (${precision})`, () => {
      const d = parseHintDate(input);
      expect(looseIso(d)).toBe(iso);
      expect(d?.precision).toBe(precision);
    });
  }
});

describe("parseHintDate: the page-date tables' digits and calendars", () => {
  it("reads Arabic-Indic and Persian digits", () => {
    expect(exactIso(parseHintDate("٢٠٢٦-١٢-٠٢T١٠:٠٠:٠٠Z"))).toBe("2026-12-02T10:00:00.000Z");
    expect(exactIso(parseHintDate("Wed, ۰۲ Dec ۲۰۲۶ ۱۰:۰۰:۰۰ GMT"))).toBe("2026-12-02T10:00:00.000Z");
  });

  it("reads Solar Hijri years as their Gregorian day (12 Azar 1403 = 2 December 2024)", () => {
    expect(exactIso(parseHintDate("۱۴۰۳-۰۹-۱۲T۱۰:۳۰:۰۰+03:30"))).toBe("2024-12-02T07:00:00.000Z");
    expect(looseIso(parseHintDate("۱۴۰۳/۰۹/۱۲"))).toBe("2024-12-02T00:00:00.000Z");
    expect(exactIso(parseHintDate("۱۲ آذر ۱۴۰۳ ۱۰:۳۰ +0330"))).toBe("2024-12-02T07:00:00.000Z");
    expect(parseHintDate("12 آذر 1403")?.precision).toBe("day");
    // Esfand 1403 has 30 days only in a leap year (1403 is one; 1404 is not).
    expect(looseIso(parseHintDate("1403-12-30"))).toBe("2025-03-20T00:00:00.000Z");
    expect(parseHintDate("1404-12-30")).toBeNull();
  });

  it("reads month names of the page tables beyond English", () => {
    expect(exactIso(parseHintDate("Mi, 02 Dezember 2026 10:00:00 +0100"))).toBe("2026-12-02T09:00:00.000Z");
    expect(exactIso(parseHintDate("02 ديسمبر 2026 10:00:00 +0300"))).toBe("2026-12-02T07:00:00.000Z");
  });
});
