/**
 * Parsing one date string as a page states it: ISO 8601 (extended and basic), RFC 2822, epoch numbers,
 * numeric day/month/year forms and month names in the common European languages, Arabic and Russian, in
 * any of the digits Arabic and Persian pages write (normalised to ASCII first). Returns the calendar day
 * as written and, only when the string carries a timezone, the UTC instant. Never guesses a timezone.
 */

import { MONTHS, ZONE_OFFSETS } from "../dates/date-tables";
import { asciiDigits } from "../dates/digits";
import {
  isSolarHijriYear,
  PERSIAN_DATE_RE,
  persianMonth,
  solarHijriToGregorian,
} from "../dates/persian-calendar";
import type { DateOrderFlag } from "../records";

export interface StatedDate {
  /** YYYY-MM-DD as written (publisher-local). */
  day: string;
  /** UTC ISO instant when the string has a time and a timezone, else null. */
  instant: string | null;
  hasTime: boolean;
  /** Offset from UTC in minutes when stated. */
  offset?: number;
  /** Wall-clock seconds since midnight as written, when a time is stated. */
  clock?: number;
  /** A slash date both of whose first numbers could be the month ("03/04/2026"): the same string read in
   * the other order, for the cross-check against the page's other dates (dates.ts). */
  other?: StatedDate;
  /** Set by the cross-check (dates.ts) on the reading it chose when the page's other dates disagreed. */
  order?: DateOrderFlag;
}

const MONTH_ALT = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join("|");

const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

/** UTC ISO 8601, without the milliseconds when they are zero. */
export function isoInstant(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

function daysIn(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function validDay(y: number, m: number, d: number): boolean {
  return y >= 1990 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}

/** Offset in minutes from "+02:00", "+0200", "+02", "Z", "GMT+2", "CEST"; undefined when absent/unknown. */
function parseOffset(tz: string | undefined): number | undefined {
  if (!tz) return undefined;
  const t = tz.trim().toLowerCase();
  if (!t) return undefined;
  const m = /^(?:(?:utc|gmt)\s*)?([+-−])\s*(\d{1,2})(?::?(\d{2}))?$/.exec(t);
  if (m) {
    const sign = m[1] === "+" ? 1 : -1;
    const h = Number(m[2]);
    const mins = Number(m[3] ?? 0);
    if (h > 14 || mins > 59) return undefined;
    return sign * (h * 60 + mins);
  }
  return ZONE_OFFSETS[t];
}

function build(
  y: number,
  mo: number,
  d: number,
  time: { h: number; mi: number; s: number; ms?: number } | null,
  offset: number | undefined,
): StatedDate | null {
  // A Solar Hijri year (13xx up to 1410) is a Persian page's date: its Gregorian day.
  if (isSolarHijriYear(y)) {
    const g = solarHijriToGregorian(y, mo, d);
    if (!g) return null;
    ({ y, m: mo, d } = g);
  }
  if (!validDay(y, mo, d)) return null;
  const day = `${y}-${pad(mo)}-${pad(d)}`;
  if (!time) return { day, instant: null, hasTime: false };
  if (time.h > 24 || time.mi > 59 || time.s > 60) return null;
  const clock = time.h * 3600 + time.mi * 60 + time.s;
  if (offset === undefined) return { day, instant: null, hasTime: true, clock };
  const ms = Date.UTC(y, mo - 1, d, time.h, time.mi, time.s, time.ms ?? 0) - offset * 60_000;
  return { day, instant: isoInstant(ms), hasTime: true, offset, clock };
}

function to24(h: number, ampm: string | undefined): number {
  if (!ampm) return h;
  // Arabic pages write "10:30 م" (مساءً, evening) and "ص" (صباحاً, morning).
  const pm = /^[pم]/i.test(ampm);
  if (h === 12) return pm ? 12 : 0;
  return pm ? h + 12 : h;
}

const ISO_RE =
  /(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:T|\s+|\s*,\s*)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-−]\d{2}(?::?\d{2})?(?!\d)|(?:UTC|GMT)(?:\s*[+-]\d{1,2}(?::?\d{2})?)?|[A-Z]{2,4}\b)?)?/i;
const BASIC_RE = /^(\d{4})(\d{2})(\d{2})(?:T?(\d{2})(\d{2})(\d{2})?(Z|[+-]\d{4})?)?$/;
const TIME_RE =
  /(?<!\d)(\d{1,2})[:.h](\d{2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|ص|م)?(?:\s*(?:uhr|h))?\s*(Z\b|[+-]\d{2}:?\d{2}\b|(?:UTC|GMT)(?:\s*[+-]\d{1,2}(?::?\d{2})?)?|\(?[A-Z]{2,4}\b\)?)?/i;
const NUMERIC_RE = /(?<![\d./])(\d{1,4})(\s?[./-]\s?|\s\|\s)(\d{1,2})\2(\d{2,4})(?![\d]|\.\d)/;
const DAY_MONTH_RE = new RegExp(
  `(?<![\\p{L}\\d])(\\d{1,2})(?:st|nd|rd|th|er|e|º)?\\.?\\s*(?:de\\s+)?(${MONTH_ALT})(?:\\s*/\\s*(?:${MONTH_ALT}))?\\.?,?\\s*(?:de\\s+|del\\s+)?(\\d{4})(?!\\d)`,
  "iu",
);
const MONTH_DAY_RE = new RegExp(
  `(?<![\\p{L}])(${MONTH_ALT})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?!\\d)`,
  "iu",
);
const CJK_RE = /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/;

function timeAfter(
  s: string,
  from: number,
): { time: { h: number; mi: number; s: number } | null; offset?: number } {
  const rest = s.slice(from, from + 40);
  const m = TIME_RE.exec(rest);
  if (!m || m.index > 12) return { time: null };
  const h = to24(Number(m[1]), m[4]);
  const time = { h, mi: Number(m[2]), s: Number(m[3] ?? 0) };
  return { time, offset: parseOffset(m[5]?.replace(/[()]/g, "")) };
}

/** Parses one stated date; null when there is none or it is invalid. `preferDayFirst` for 03/04/2020. */
export function parseStatedDate(
  input: string,
  opts: { dayFirst?: boolean; epoch?: boolean } = {},
): StatedDate | null {
  const s = asciiDigits(input.trim().slice(0, 300));
  if (!s) return null;
  // Epoch seconds / milliseconds (some sites put them in data attributes and Parse.ly fields).
  if (opts.epoch !== false && /^\d{10}(?:\d{3})?$/.test(s)) {
    const n = Number(s);
    const ms = s.length === 13 ? n : n * 1000;
    if (ms < Date.UTC(1995, 0, 1) || ms > Date.UTC(2100, 0, 1)) return null;
    const iso = isoInstant(ms);
    return { day: iso.slice(0, 10), instant: iso, hasTime: true, offset: 0 };
  }
  const basic = BASIC_RE.exec(s);
  if (basic) {
    const time = basic[4] ? { h: Number(basic[4]), mi: Number(basic[5]), s: Number(basic[6] ?? 0) } : null;
    return build(Number(basic[1]), Number(basic[2]), Number(basic[3]), time, parseOffset(basic[7]));
  }
  const iso = ISO_RE.exec(s);
  if (iso) {
    const time = iso[4]
      ? {
          h: Number(iso[4]),
          mi: Number(iso[5]),
          s: Number(iso[6] ?? 0),
          ms: Number(`0.${iso[7] ?? 0}`) * 1000,
        }
      : null;
    const r = build(
      Number(iso[1]),
      Number(iso[2]),
      Number(iso[3]),
      time,
      parseOffset(iso[8]?.replace("−", "-")),
    );
    if (r) return r;
  }
  const cjk = CJK_RE.exec(s);
  if (cjk) {
    const { time, offset } = timeAfter(s, cjk.index + cjk[0].length);
    const r = build(Number(cjk[1]), Number(cjk[2]), Number(cjk[3]), time, offset);
    if (r) return r;
  }
  const fa = PERSIAN_DATE_RE.exec(s);
  if (fa) {
    const { time, offset } = timeAfter(s, fa.index + fa[0].length);
    const y = Number(fa[3]);
    const r = isSolarHijriYear(y) ? build(y, persianMonth(fa[2]!)!, Number(fa[1]), time, offset) : null;
    if (r) return r;
  }
  const dm = DAY_MONTH_RE.exec(s);
  const md = MONTH_DAY_RE.exec(s);
  const named = dm && (!md || dm.index <= md.index) ? dm : md;
  if (named) {
    const isDm = named === dm;
    const d = Number(isDm ? named[1] : named[2]);
    const mo = MONTHS[(isDm ? named[2] : named[1])!.toLowerCase()]!;
    const y = Number(named[3]);
    const { time, offset } = timeAfter(s, named.index + named[0].length);
    // A time written before the date ("10:30 AM, March 3, 2020") also counts.
    const before = time ? { time, offset } : timeBefore(s, named.index);
    return build(y, mo, d, before.time, before.offset);
  }
  const num = NUMERIC_RE.exec(s);
  if (num) {
    const a = Number(num[1]);
    const b = Number(num[3]);
    let c = Number(num[4]);
    let y: number;
    let mo: number;
    let d: number;
    if (num[1]!.length === 4) {
      y = a;
      mo = b;
      d = c;
    } else {
      if (num[4]!.length === 2) c += c > 70 ? 1900 : 2000;
      else if (num[4]!.length !== 4) return null;
      y = c;
      const dayFirst = num[2]!.trim() !== "/" || (opts.dayFirst ?? true);
      if (a > 12) {
        d = a;
        mo = b;
      } else if (b > 12) {
        mo = a;
        d = b;
      } else if (dayFirst) {
        d = a;
        mo = b;
      } else {
        mo = a;
        d = b;
      }
    }
    const { time, offset } = timeAfter(s, num.index + num[0].length);
    const read = build(y, mo, d, time, offset);
    const ambiguous = num[1]!.length !== 4 && num[2]!.trim() === "/" && a <= 12 && b <= 12 && a !== b;
    const other = read && ambiguous ? build(y, d, mo, time, offset) : null;
    return other ? { ...read!, other } : read;
  }
  return null;
}

function timeBefore(
  s: string,
  idx: number,
): { time: { h: number; mi: number; s: number } | null; offset?: number } {
  const start = Math.max(0, idx - 30);
  const m = TIME_RE.exec(s.slice(start, idx));
  if (!m) return { time: null };
  return {
    time: { h: to24(Number(m[1]), m[4]), mi: Number(m[2]), s: Number(m[3] ?? 0) },
    offset: parseOffset(m[5]),
  };
}

/** Dates in a URL path: /2019/10/19/, /2019-10-19-, /20191019/ (day only, never a timezone). */
export function dateFromUrl(url: string): StatedDate | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url;
  }
  const m =
    /(?:^|[/_-])((?:19|20)\d{2})[/_-](0?[1-9]|1[0-2])[/_-](0?[1-9]|[12]\d|3[01])(?=$|[/_.-])/.exec(path) ??
    /(?:^|[/_-])((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=$|[/_.-])/.exec(path);
  if (m) return build(Number(m[1]), Number(m[2]), Number(m[3]), null, undefined);
  // Day first, as European slugs write it: /19-10-2019/, /story-19_10_2019.html.
  const dmy = /(?:^|[/_-])(0?[1-9]|[12]\d|3[01])[/_-](0?[1-9]|1[0-2])[/_-]((?:19|20)\d{2})(?=$|[/_.-])/.exec(
    path,
  );
  if (dmy) return build(Number(dmy[3]), Number(dmy[2]), Number(dmy[1]), null, undefined);
  return null;
}

export interface DateMatch {
  index: number;
  end: number;
  date: StatedDate;
}

const SCANNERS: RegExp[] = [
  new RegExp(ISO_RE.source, "gi"),
  new RegExp(DAY_MONTH_RE.source, "giu"),
  new RegExp(MONTH_DAY_RE.source, "giu"),
  new RegExp(NUMERIC_RE.source, "g"),
  new RegExp(CJK_RE.source, "g"),
  new RegExp(PERSIAN_DATE_RE.source, "gu"),
];

/** Every date expression in a text, in order, overlapping matches resolved in favour of the earlier one. */
export function scanDates(input: string, limit = 200, opts: { dayFirst?: boolean } = {}): DateMatch[] {
  // Same length as the input, so the offsets returned hold for it.
  const text = asciiDigits(input);
  const found: DateMatch[] = [];
  for (const re of SCANNERS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null = re.exec(text);
    let n = 0;
    while (m !== null && n < limit) {
      n++;
      // Parse the match with a little context after it so a following time is read too.
      const d = parseStatedDate(text.slice(m.index, m.index + m[0].length + 30), {
        epoch: false,
        dayFirst: opts.dayFirst,
      });
      if (d) found.push({ index: m.index, end: m.index + m[0].length, date: d });
      m = re.exec(text);
    }
  }
  found.sort((a, b) => a.index - b.index);
  const out: DateMatch[] = [];
  let lastEnd = -1;
  for (const f of found) {
    if (f.index < lastEnd) continue;
    out.push(f);
    lastEnd = f.end;
  }
  return out;
}
