/**
 * Dates found in sitemaps and feeds (W3C datetime, RFC 822 with its many real-world variants). They are
 * hints and filters, never a guess: a date without a timezone is kept only for filtering, with its
 * uncertainty, and is not reported as an instant.
 */

export interface HintDate {
  /** Milliseconds since the epoch, reading a missing timezone as UTC. */
  ms: number;
  /** exact: full instant with offset; day: date only; local: date and time without a timezone. */
  precision: "exact" | "day" | "local";
}

const ZONES: Readonly<Record<string, number>> = {
  gmt: 0,
  ut: 0,
  utc: 0,
  z: 0,
  est: -5,
  edt: -4,
  cst: -6,
  cdt: -5,
  mst: -7,
  mdt: -6,
  pst: -8,
  pdt: -7,
  bst: 1,
  cet: 1,
  cest: 2,
  eet: 2,
  eest: 3,
  ist: 5.5,
  jst: 9,
  aest: 10,
  aedt: 11,
};

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** Largest offset a local time can be from UTC: bounds the error of reading it as UTC. */
const MAX_ZONE_MS = 14 * 3600_000;
const DAY_MS = 86_400_000;

function offsetMinutes(zone: string): number | null {
  const z = zone.trim().toLowerCase();
  if (z === "") return null;
  if (z in ZONES) return ZONES[z]! * 60;
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
  if (y < 1970 || y > 2200) return null;
  const ms = Date.UTC(y, mo, d, h, mi, s, frac ? Math.round(Number(`0.${frac}`) * 1000) : 0);
  if (!Number.isFinite(ms) || new Date(ms).getUTCDate() !== d) return null;
  return { ms: ms - (offset ?? 0) * 60_000, precision: offset === null ? precision : "exact" };
}

export function parseHintDate(raw: unknown): HintDate | null {
  if (typeof raw !== "string" && typeof raw !== "number") return null;
  const s = String(raw).trim();
  if (!s || s.length > 64) return null;

  // W3C datetime / ISO 8601 (sitemaps, Atom, JSON Feed, dc:date).
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(
      s,
    );
  if (iso) {
    const [, y, mo, d, h, mi, sec, frac, zone] = iso;
    if (h === undefined) return build(+y!, +mo! - 1, +d!, 0, 0, 0, undefined, null, "day");
    const off = zone ? offsetMinutes(zone) : null;
    if (Number.isNaN(off)) return null;
    return build(+y!, +mo! - 1, +d!, +h, +mi!, +(sec ?? 0), frac, off, "local");
  }

  // RFC 822 / 2822 and the variants feeds really use: optional or wrong weekday, full month names,
  // two-digit years, missing seconds, named or numeric zones, "GMT+2".
  const rfc =
    /^(?:[a-z]{2,9}\.?,?\s+)?(\d{1,2})[\s-]+([a-z]{3,9})\.?[\s-]+(\d{2,4}),?\s+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(.*)$/i.exec(
      s,
    );
  if (rfc) {
    const [, d, monthName, yRaw, h, mi, sec, frac, zone] = rfc;
    const mo = MONTHS.indexOf(monthName!.slice(0, 3).toLowerCase());
    if (mo < 0) return null;
    let y = Number(yRaw);
    if (yRaw!.length === 2) y += y < 50 ? 2000 : 1900;
    const off = offsetMinutes((zone ?? "").replace(/\s*\(.*\)$/, ""));
    if (Number.isNaN(off)) return null;
    return build(y, mo, +d!, +h!, +mi!, +(sec ?? 0), frac, off, "local");
  }
  return null;
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
