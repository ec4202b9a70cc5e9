/**
 * The Solar Hijri (Persian, Jalali) calendar of Iranian and Afghan pages: "۱۴۰۳/۰۹/۱۲", "12 آذر 1403".
 * A year starts at Nowruz (20 or 21 March); months 1–6 have 31 days, 7–11 have 30, Esfand 29 or 30.
 *
 * Nowruz is found with the break-year arithmetic of Borkowski's algorithm (as in jalaali-js): the leap
 * years follow 33-year cycles between listed break years, which matches the astronomical calendar Iran
 * uses for 1178–1633 SH. Tested against known pairs (test/shared/dates/persian-calendar.test.ts).
 */

/** Years whose leap cycle restarts (Borkowski); the table covers every year read here. */
const BREAKS = [-61, 9, 38, 199, 426, 686, 756, 818, 1111, 1181, 1210, 1635];

/**
 * Solar Hijri years read: 1300–1410 SH is 1921–2032. Lunar Hijri years written on pages since 1995 are
 * 1415 and later ("1445/05/12"), so a year above 1410 is never read as Solar Hijri, and a Gregorian
 * page's years (19xx/20xx) never are either.
 */
const FIRST_YEAR = 1300;
const LAST_YEAR = 1410;

export function isSolarHijriYear(y: number): boolean {
  return y >= FIRST_YEAR && y <= LAST_YEAR;
}

const div = (a: number, b: number): number => Math.trunc(a / b);
const mod = (a: number, b: number): number => a - Math.trunc(a / b) * b;

/** Day of March (Gregorian year jy + 621) on which 1 Farvardin of Solar Hijri year jy falls. */
function nowruzInMarch(jy: number): number {
  const gy = jy + 621;
  let leapJ = -14;
  let jp = BREAKS[0]!;
  let jump = 0;
  for (let i = 1; i < BREAKS.length; i++) {
    const jm = BREAKS[i]!;
    jump = jm - jp;
    if (jy < jm) break;
    leapJ += div(jump, 33) * 8 + div(mod(jump, 33), 4);
    jp = jm;
  }
  const n = jy - jp;
  leapJ += div(n, 33) * 8 + div(mod(n, 33) + 3, 4);
  if (mod(jump, 33) === 4 && jump - n === 4) leapJ += 1;
  const leapG = div(gy, 4) - div((div(gy, 100) + 1) * 3, 4) - 150;
  return 20 + leapJ - leapG;
}

const DAY_MS = 86_400_000;

function nowruz(jy: number): number {
  return Date.UTC(jy + 621, 2, nowruzInMarch(jy));
}

/** The Gregorian day of a Solar Hijri date; null outside the years read or for a day the month lacks. */
export function solarHijriToGregorian(
  jy: number,
  jm: number,
  jd: number,
): { y: number; m: number; d: number } | null {
  if (!isSolarHijriYear(jy) || jm < 1 || jm > 12 || jd < 1) return null;
  const start = nowruz(jy);
  const monthStart = jm <= 7 ? (jm - 1) * 31 : 186 + (jm - 7) * 30;
  const monthLength = jm <= 6 ? 31 : jm <= 11 ? 30 : (nowruz(jy + 1) - start) / DAY_MS - 336;
  if (jd > monthLength) return null;
  const t = new Date(start + (monthStart + jd - 1) * DAY_MS);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/**
 * Persian month names, with the Arabic yeh (ي) some pages type for the Persian one (ی) and the
 * zero-width non-joiner of "اردی‌بهشت" optional. None is an Arabic month name (آذر, not آذار).
 */
const PERSIAN_MONTHS = [
  "فروردین",
  "اردیبهشت",
  "خرداد",
  "تیر",
  "مرداد",
  "شهریور",
  "مهر",
  "آبان",
  "آذر",
  "دی",
  "بهمن",
  "اسفند",
];
const monthPattern = (name: string): string => name.replace("یب", "ی\u200c?ب").replace(/ی/g, "[یي]");

/** Month name → month number (1–12), any spelling variant. */
export function persianMonth(name: string): number | null {
  const plain = name.replace(/ي/g, "ی").replace(/\u200c/g, "");
  const i = PERSIAN_MONTHS.indexOf(plain);
  return i < 0 ? null : i + 1;
}

/** "12 آذر 1403": day, month name, year (ASCII digits; the parser normalises first). */
export const PERSIAN_DATE_RE = new RegExp(
  `(?<![\\p{L}\\d])(\\d{1,2})\\s*(${[...PERSIAN_MONTHS]
    .sort((a, b) => b.length - a.length)
    .map(monthPattern)
    .join("|")})\\s*(?:ماه\\s*)?(\\d{4})(?!\\d)`,
  "u",
);
