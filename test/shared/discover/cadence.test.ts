import { describe, expect, it } from "vitest";
import { DEFAULT_SOURCE_SCHEDULE, isDue, parseCadence } from "../../../shared/discover/cadence";

const at = (iso: string) => new Date(iso);
/** The ticks (every 15 minutes) of one UTC day at which `schedule` is due. */
const ticksOfDay = (schedule: string | undefined, day = "2026-03-10") => {
  const out: string[] = [];
  for (let m = 0; m < 1440; m += 15) {
    const t = new Date(Date.parse(`${day}T00:00:00Z`) + m * 60_000);
    if (isDue(schedule, DEFAULT_SOURCE_SCHEDULE, t)) out.push(t.toISOString().slice(11, 16));
  }
  return out;
};

describe("isDue", () => {
  it("starts a source naming no cadence once a day, at the default's tick", () => {
    expect(ticksOfDay(undefined)).toEqual(["05:00"]);
    expect(isDue(undefined, "cron(30 4 * * ? *)", at("2026-03-10T04:30:00Z"))).toBe(true);
    expect(isDue(undefined, "cron(30 4 * * ? *)", at("2026-03-10T05:00:00Z"))).toBe(false);
  });

  it("covers the window since the previous tick, end included, start excluded", () => {
    // A cron at 05:07 falls in the 05:15 tick's window (05:00, 05:15].
    expect(isDue("cron(7 5 * * ? *)", DEFAULT_SOURCE_SCHEDULE, at("2026-03-10T05:15:00Z"))).toBe(true);
    expect(isDue("cron(7 5 * * ? *)", DEFAULT_SOURCE_SCHEDULE, at("2026-03-10T05:00:00Z"))).toBe(false);
    expect(isDue("cron(0 5 * * ? *)", DEFAULT_SOURCE_SCHEDULE, at("2026-03-10T05:15:00Z"))).toBe(false);
    // A late tick (seconds past) covers the same window as its scheduled minute.
    expect(isDue(undefined, DEFAULT_SOURCE_SCHEDULE, at("2026-03-10T05:00:42Z"))).toBe(true);
  });

  it("reads rates at whole multiples of their period; a rate finer than the tick runs every tick", () => {
    expect(ticksOfDay("rate(1 hour)")).toHaveLength(24);
    expect(ticksOfDay("rate(6 hours)")).toEqual(["00:00", "06:00", "12:00", "18:00"]);
    expect(ticksOfDay("rate(5 minutes)")).toHaveLength(96);
    expect(ticksOfDay("rate(1 day)")).toEqual(["00:00"]);
  });

  it("reads the cron forms the example sources use, names, lists, ranges and steps", () => {
    expect(ticksOfDay("cron(0 */2 * * ? *)")).toHaveLength(12);
    expect(ticksOfDay("cron(0 9,17 * * ? *)")).toEqual(["09:00", "17:00"]);
    // 2026-03-10 is a Tuesday (TUE = 3 in EventBridge, SUN = 1).
    expect(ticksOfDay("cron(0 8 ? * TUE *)")).toEqual(["08:00"]);
    expect(ticksOfDay("cron(0 8 ? * 3 *)")).toEqual(["08:00"]);
    expect(ticksOfDay("cron(0 8 ? * MON-FRI *)")).toEqual(["08:00"]);
    expect(ticksOfDay("cron(0 8 ? * SAT,SUN *)")).toEqual([]);
    expect(ticksOfDay("cron(0 8 10 MAR ? 2026)")).toEqual(["08:00"]);
    expect(ticksOfDay("cron(0 8 10 MAR ? 2027)")).toEqual([]);
    expect(ticksOfDay("cron(0 8 11 * ? *)")).toEqual([]);
  });
});

describe("parseCadence", () => {
  it.each([
    "cron(0 5 L * ? *)",
    "cron(0 5 ? * 2#1 *)",
    "cron(60 5 * * ? *)",
    "cron(0 5 * 13 ? *)",
    "cron(0 9-5 * * ? *)",
    "daily",
  ])("refuses %s with a reason", (schedule) => {
    expect(() => parseCadence(schedule)).toThrow(/./);
  });
});
