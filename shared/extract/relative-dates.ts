/**
 * "… ago" dates ("3 hours ago", "vor 2 Stunden", "il y a 5 minutes", "hace 2 días", "منذ ساعتين", "3時間前"),
 * resolved against the fetch time. A page that states no absolute date often shows only this.
 *
 * Precision is the unit's: minutes and hours give an instant (to that unit) and its UTC day; days give a
 * day only (the publisher's local day is not known from "2 days ago", and the UTC day of now − 2 days is
 * the best reading), never an instant. Weeks, months and years are not read: they cannot name a day.
 *
 * The words stay as a table because the construction is grammatical, not site wording: each language
 * writes "N unit ago" one way ("ago", "vor", "il y a", "hace", "há", "fa", "geleden", "назад", "منذ",
 * "پیش", "前"), the same on every site in it.
 */
import { asciiDigits } from "../dates/digits";
import { isoInstant, type StatedDate } from "./date-parse";

type Unit = "minute" | "hour" | "day";

const UNIT_MS: Record<Unit, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Unit words (lower case) by the unit they name; a word that is a dual ("ساعتين") counts 2. */
const UNIT_WORDS: [Unit, string[]][] = [
  [
    "minute",
    [
      "minute",
      "minutes",
      "min",
      "mins",
      "minuten",
      "minuto",
      "minutos",
      "minuti",
      "minuut",
      "минут",
      "минуту",
      "минуты",
      "دقيقة",
      "دقائق",
      "دقیقه",
      "分",
      "分钟",
      "分鐘",
    ],
  ],
  [
    "hour",
    [
      "hour",
      "hours",
      "hr",
      "hrs",
      "stunde",
      "stunden",
      "heure",
      "heures",
      "hora",
      "horas",
      "ora",
      "ore",
      "uur",
      "час",
      "часа",
      "часов",
      "ساعة",
      "ساعات",
      "ساعت",
      "時間",
      "小时",
      "小時",
    ],
  ],
  [
    "day",
    [
      "day",
      "days",
      "tag",
      "tagen",
      "jour",
      "jours",
      "día",
      "días",
      "dia",
      "dias",
      "giorno",
      "giorni",
      "dag",
      "dagen",
      "день",
      "дня",
      "дней",
      "يوم",
      "أيام",
      "ايام",
      "روز",
      "日",
      "天",
    ],
  ],
];
const DUALS: Record<string, Unit> = { دقيقتين: "minute", ساعتين: "hour", يومين: "day" };
const UNITS: Readonly<Record<string, Unit>> = (() => {
  const out: Record<string, Unit> = {};
  for (const [unit, words] of UNIT_WORDS) for (const w of words) out[w] = unit;
  return out;
})();
/** "a", "an", "one", "einer", "une", "una", "um", "een": one of the unit. */
const ONE = new Set(["a", "an", "one", "einer", "einem", "un", "une", "una", "uno", "um", "uma", "een"]);

const N = String.raw`(\d{1,3}|an?|one|einer|einem|une?|una|uno|uma?|een)`;
const U = String.raw`(\p{L}+)`;
/** One pattern per construction: count in group 1 and unit in group 2, or unit only (Arabic dual). */
const PATTERNS: RegExp[] = [
  new RegExp(String.raw`(?<!\p{L})${N}\s+${U}\s+(?:ago|geleden|fa|atrás|назад)(?!\p{L})`, "giu"),
  new RegExp(String.raw`(?<!\p{L})(?:vor|il\s+y\s+a|hace|há)\s+${N}\s+${U}(?!\p{L})`, "giu"),
  /(\d{1,3})\s*(دقیقه|ساعت|روز)\s+(?:پیش|قبل)/gu,
  /(\d{1,3})\s*(分钟|分鐘|分|時間|小时|小時|日|天)\s*前/gu,
];
const ARABIC =
  /منذ\s+(?:(\d{1,3})\s+)?(دقيقتين|ساعتين|يومين|دقيقة|دقائق|ساعة|ساعات|يوم|أيام|ايام)(?!\p{L})/gu;

export interface RelativeMatch {
  index: number;
  unit: Unit;
  date: StatedDate;
}

function resolve(count: number, unit: Unit, now: Date): StatedDate | null {
  // A unit's count past a year is a widget's counter, not a byline.
  if (!(count >= 0) || count * UNIT_MS[unit] > 366 * UNIT_MS.day) return null;
  const t = now.getTime() - count * UNIT_MS[unit];
  if (unit === "day") return { day: isoInstant(t).slice(0, 10), instant: null, hasTime: false };
  // To the unit: "3 hours ago" is known to the hour, so the minutes of now are not claimed.
  const at = Math.floor(t / UNIT_MS[unit]) * UNIT_MS[unit];
  const instant = isoInstant(at);
  return { day: instant.slice(0, 10), instant, hasTime: true, offset: 0 };
}

/** Every "… ago" expression in a text, in order, resolved against `now`. */
export function scanRelativeDates(input: string, now: Date): RelativeMatch[] {
  const text = asciiDigits(input);
  const out: RelativeMatch[] = [];
  for (const re of PATTERNS) {
    for (const m of text.matchAll(re)) {
      const unit = UNITS[m[2]!.toLowerCase()];
      if (!unit) continue;
      const n = m[1]!.toLowerCase();
      const date = resolve(ONE.has(n) ? 1 : Number(n), unit, now);
      if (date) out.push({ index: m.index, unit, date });
    }
  }
  for (const m of text.matchAll(ARABIC)) {
    const dual = DUALS[m[2]!];
    const unit = dual ?? UNITS[m[2]!]!;
    const date = resolve(dual ? 2 : Number(m[1] ?? 1), unit, now);
    if (date) out.push({ index: m.index, unit, date });
  }
  return out.sort((a, b) => a.index - b.index);
}
