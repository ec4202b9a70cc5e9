/**
 * Dates found in sitemaps and feeds (W3C datetime, RFC 822 with its many real-world variants), in the digits,
 * month names and Solar Hijri calendar of the page-date tables (shared/dates). They are
 * hints and filters, never a guess: a date without a timezone is kept only for filtering, with its
 * uncertainty, and is not reported as an instant.
 */

import { MONTHS, ZONE_OFFSETS } from "../dates/date-tables";
import { asciiDigits } from "../dates/digits";
import {
  isSolarHijriYear,
  PERSIAN_DATE_RE,
  persianMonth,
  solarHijriToGregorian,
} from "../dates/persian-calendar";

export interface HintDate {
  /** Milliseconds since the epoch, reading a missing timezone as UTC. */
  ms: number;
  /** exact: full instant with offset; day: date only; local: date and time without a timezone. */
  precision: "exact" | "day" | "local";
}

/**
 * Zone names feeds write beyond the page table (shared/dates/date-tables.ts): the bare US zone names
 * Disney's and others' feeds write (feedparser reads them the same way), and a few European ones. Minutes.
 */
const FEED_ZONE_OFFSETS: Readonly<Record<string, number>> = {
  "etc/gmt": 0,
  at: -240,
  ast: -240,
  adt: -180,
  et: -300,
  ct: -360,
  mt: -420,
  pt: -480,
  met: 60,
  mest: 120,
  west: 60,
};

/** Largest offset a local time can be from UTC: bounds the error of reading it as UTC. */
const MAX_ZONE_MS = 14 * 3600_000;
const DAY_MS = 86_400_000;

function offsetMinutes(zone: string): number | null {
  const z = zone.trim().toLowerCase();
  if (z === "") return null;
  const named = FEED_ZONE_OFFSETS[z] ?? ZONE_OFFSETS[z];
  if (named !== undefined) return named;
  // Military zones other than Z: RFC 2822 §4.3 says their signs were defined backwards in RFC 822 and
  // to read them as -0000 (the time is UTC).
  if (/^[a-ik-y]$/.test(z)) return 0;
  const m = /^(?:gmt|utc)?([+-])(\d{1,2}):?(\d{2})?$/.exec(z);
  if (!m) return Number.NaN;
  const sign = m[1] === "-" ? -1 : 1;
  return sign * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

function build(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  frac: string | undefined,
  offset: number | null,
  precision: HintDate["precision"],
): HintDate | null {
  if (mo < 0 || mo > 11 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return null;
  // A Solar Hijri year (1300–1410, Iranian and Afghan feeds) is read as its Gregorian day, as on pages.
  if (isSolarHijriYear(y)) {
    const g = solarHijriToGregorian(y, mo + 1, d);
    if (!g) return null;
    ({ y, d } = g);
    mo = g.m - 1;
  }
  if (y < 1970 || y > 2200) return null;
  const ms = Date.UTC(y, mo, d, h, mi, s, frac ? Math.round(Number(`0.${frac}`) * 1000) : 0);
  if (!Number.isFinite(ms) || new Date(ms).getUTCDate() !== d) return null;
  return { ms: ms - (offset ?? 0) * 60_000, precision: offset === null ? precision : "exact" };
}

export function parseHintDate(raw: unknown): HintDate | null {
  if (typeof raw !== "string" && typeof raw !== "number") return null;
  // Arabic-Indic and Persian digits as ASCII (the page parser's table).
  const s = asciiDigits(String(raw).trim());
  if (!s || s.length > 100) return null;

  // W3C datetime / ISO 8601 (sitemaps, Atom, JSON Feed, dc:date), and the slashed form Persian feeds write.
  const iso =
    /^(\d{4})([-/])0?(\d{2})\2(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(
      s,
    );
  if (iso) {
    const [, y, , mo, d, h, mi, sec, frac, zone] = iso;
    if (h === undefined) return build(+y!, +mo! - 1, +d!, 0, 0, 0, undefined, null, "day");
    const off = zone ? offsetMinutes(zone) : null;
    if (Number.isNaN(off)) return null;
    return build(+y!, +mo! - 1, +d!, +h, +mi!, +(sec ?? 0), frac, off, "local");
  }

  return parseRfc822(s) ?? parseMonthFirst(s) ?? parsePersian(s);
}

/** Month 0–11 of a name in the page tables (any language there) or its three-letter start, -1 when unknown. */
function monthIndex(name: string): number {
  const n = name.toLowerCase();
  return (MONTHS[n] ?? MONTHS[n.slice(0, 3)] ?? 0) - 1;
}

/** "12 آذر 1403 10:30": a Persian month name, then an optional time and zone. */
function parsePersian(s: string): HintDate | null {
  const m = PERSIAN_DATE_RE.exec(s);
  if (!m) return null;
  const y = Number(m[3]);
  const mo = persianMonth(m[2]!);
  if (!isSolarHijriYear(y) || mo === null) return null;
  const t = /^[\s,،-]*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(.*)$/u.exec(s.slice(m.index + m[0].length));
  if (!t) return build(y, mo - 1, Number(m[1]), 0, 0, 0, undefined, null, "day");
  const off = zoneOf(t[4]);
  if (Number.isNaN(off)) return null;
  return build(y, mo - 1, Number(m[1]), +t[1]!, +t[2]!, +(t[3] ?? 0), undefined, off, "local");
}

function fullYear(raw: string): number {
  const y = Number(raw);
  return raw.length === 2 ? y + (y < 50 ? 2000 : 1900) : y;
}

function zoneOf(raw: string | undefined): number | null {
  return offsetMinutes((raw ?? "").replace(/\s*\(.*\)$/, ""));
}

/**
 * RFC 822 / 2822 and the variants feeds really use: optional, glued ("Fri,24") or wrong weekday, full
 * month names, a comma after the month, two-digit years, missing seconds or time, named, military or
 * numeric zones, "GMT+2", "-01:01", a trailing "(UTC)".
 */
function parseRfc822(s: string): HintDate | null {
  const m =
    /^(?:\p{L}{2,9}\.?\s*[,،]?\s*)?(\d{1,2})[\s-]+(\p{L}{3,9})\.?,?[\s-]+(\d{4}|\d{2})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(.*)$/iu.exec(
      s,
    );
  if (!m) return null;
  const [, d, monthName, yRaw, h, mi, sec, frac, zone] = m;
  const mo = monthIndex(monthName!);
  if (mo < 0) return null;
  if (h === undefined) {
    return zone && Number.isNaN(zoneOf(zone))
      ? null
      : build(fullYear(yRaw!), mo, +d!, 0, 0, 0, undefined, null, "day");
  }
  const off = zoneOf(zone);
  if (Number.isNaN(off)) return null;
  return build(fullYear(yRaw!), mo, +d!, +h, +mi!, +(sec ?? 0), frac, off, "local");
}

/**
 * Month-first forms: JavaScript's Date.toString ("Thu Aug 30 2012 17:26:16 GMT+0200"), asctime
 * ("Sun Jan  4 16:29:06 2004") and Twitter's ("Sun Jul 15 01:16:00 +0000 2012").
 */
function parseMonthFirst(s: string): HintDate | null {
  const js =
    /^(?:[a-z]{2,9},?\s+)?([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4}),?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(.*)$/i.exec(
      s,
    );
  const asc = js
    ? null
    : /^[a-z]{3}\s+([a-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(?:(\S+)\s+)?(\d{4})$/i.exec(s);
  const parts = js
    ? { mon: js[1]!, d: js[2]!, y: js[3]!, h: js[4]!, mi: js[5]!, sec: js[6], zone: js[7] }
    : asc
      ? { mon: asc[1]!, d: asc[2]!, y: asc[7]!, h: asc[3]!, mi: asc[4]!, sec: asc[5], zone: asc[6] }
      : null;
  if (!parts) return null;
  const mo = monthIndex(parts.mon);
  const off = zoneOf(parts.zone);
  if (mo < 0 || Number.isNaN(off)) return null;
  return build(+parts.y, mo, +parts.d, +parts.h, +parts.mi, +(parts.sec ?? 0), undefined, off, "local");
}

/** ISO instant for reporting, or null unless the date carried its timezone. */
export function exactIso(d: HintDate | null): string | null {
  return d && d.precision === "exact" ? new Date(d.ms).toISOString() : null;
}

/** ISO instant for filtering and lastmod fields (day and local precision read as UTC). */
export function looseIso(d: HintDate | null): string | null {
  return d ? new Date(d.ms).toISOString() : null;
}

/** The latest instant the date can denote, so that filtering never drops something that may be newer. */
export function latestPossibleMs(d: HintDate): number {
  if (d.precision === "day") return d.ms + DAY_MS + MAX_ZONE_MS;
  if (d.precision === "local") return d.ms + MAX_ZONE_MS;
  return d.ms;
}
