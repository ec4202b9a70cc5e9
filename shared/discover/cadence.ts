/**
 * When a source is due. A source names its cadence as an EventBridge Scheduler expression
 * (`rate(N unit)` or a 6-field `cron(…)`, sources.ts); the stack no longer makes one schedule per
 * cadence: a fixed tick invokes the dispatcher, which starts every source with an occurrence of its
 * cadence in the tick's window. Pure: the caller passes the window.
 */

/** The daily run of a source that names no cadence (05:00 UTC); `-c discoverSchedule` overrides it. */
export const DEFAULT_SOURCE_SCHEDULE = "cron(0 5 * * ? *)";

/** The dispatcher's tick. A cadence finer than it runs once per tick. 15 minutes: 96 Sources-table
 * reads a day, and no cadence any sources file here names (hourly, two-hourly, daily) is finer. */
export const DISPATCH_TICK_MINUTES = 15;

const MINUTE_MS = 60_000;
const RATE = /^rate\(\s*([1-9]\d*)\s+(minute|minutes|hour|hours|day|days)\s*\)$/;
const CRON = /^cron\(\s*(\S+(?:\s+\S+){5})\s*\)$/;
const UNIT_MINUTES = { minute: 1, hour: 60, day: 1440 } as const;
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

interface Field {
  readonly min: number;
  readonly max: number;
  /** Names for the values from `min` on (JAN = 1, SUN = 1 as in EventBridge). */
  readonly names?: readonly string[];
}
const FIELDS: readonly Field[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 1, max: 7, names: DAYS },
  { min: 1970, max: 2199 },
];

/** A parsed cadence: a function telling whether it fires in a given UTC minute. */
type Matcher = (minute: Date) => boolean;

function value(text: string, field: Field): number {
  const named = field.names?.indexOf(text.toUpperCase()) ?? -1;
  const n = named >= 0 ? field.min + named : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= field.min && n <= field.max)) throw new Error(`"${text}" is not in ${field.min}-${field.max}`);
  return n;
}

/** One cron field's allowed values; `*` and `?` allow all. Lists, ranges and steps; no L, W or #. */
function fieldValues(text: string, field: Field): Set<number> | "any" {
  if (text === "*" || text === "?") return "any";
  const out = new Set<number>();
  for (const part of text.split(",")) {
    const m = /^([^/-]+)(?:-([^/]+))?(?:\/(\d+))?$/.exec(part);
    if (!m) throw new Error(`cannot read "${part}" (only numbers, names, *, ?, lists, ranges and steps)`);
    const from = m[1] === "*" ? field.min : value(m[1]!, field);
    const to = m[2] !== undefined ? value(m[2], field) : m[3] !== undefined ? field.max : from;
    const step = m[3] !== undefined ? Number(m[3]) : 1;
    if (step < 1 || to < from) throw new Error(`"${part}" is an empty range`);
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

function cronMatcher(body: string): Matcher {
  const parts = body.split(/\s+/);
  const sets = parts.map((p, i) => fieldValues(p, FIELDS[i]!));
  const has = (i: number, v: number) => sets[i] === "any" || (sets[i] as Set<number>).has(v);
  // As in cron: when both day fields are restricted, either may match.
  const dayOfMonthOpen = sets[2] === "any";
  const dayOfWeekOpen = sets[4] === "any";
  return (t) => {
    const dom = has(2, t.getUTCDate());
    const dow = has(4, t.getUTCDay() + 1);
    const day = dayOfMonthOpen || dayOfWeekOpen ? dom && dow : dom || dow;
    return (
      has(0, t.getUTCMinutes()) &&
      has(1, t.getUTCHours()) &&
      day &&
      has(3, t.getUTCMonth() + 1) &&
      has(5, t.getUTCFullYear())
    );
  };
}

/** Reads a cadence; throws an Error saying what is wrong (sources.ts reports it for the field). */
export function parseCadence(schedule: string): Matcher {
  const rate = RATE.exec(schedule.trim());
  if (rate) {
    const minutes = Number(rate[1]) * UNIT_MINUTES[rate[2]!.replace(/s$/, "") as keyof typeof UNIT_MINUTES];
    // Occurrences at whole multiples of the period since the epoch: a stable phase for every run.
    return (t) => Math.floor(t.getTime() / MINUTE_MS) % minutes === 0;
  }
  const cron = CRON.exec(schedule.trim());
  if (cron) return cronMatcher(cron[1]!);
  throw new Error("must be rate(N unit) or a 6-field cron(…) expression");
}

/**
 * Whether `schedule` (default: `defaultSchedule`) fires in the window (`end` - `minutes`, `end`]: the
 * tick at `end` starts what fell due since the previous tick. A cadence finer than the window fires once.
 */
export function isDue(
  schedule: string | undefined,
  defaultSchedule: string,
  end: Date,
  minutes = DISPATCH_TICK_MINUTES,
): boolean {
  const matches = parseCadence(schedule ?? defaultSchedule);
  const last = Math.floor(end.getTime() / MINUTE_MS) * MINUTE_MS;
  for (let i = 0; i < minutes; i++) if (matches(new Date(last - i * MINUTE_MS))) return true;
  return false;
}
