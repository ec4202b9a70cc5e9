import { describe, expect, it } from "vitest";
import { clockFrom } from "../../../shared/config/clock";
import { crawlSettings } from "../../../shared/config/crawl-settings";

describe("the functions' clock", () => {
  it("starts at STORYTRAIL_NOW and runs at the wall clock's pace from the process's start", () => {
    let elapsed = 0;
    const clock = clockFrom("2031-07-15T23:30:00+02:00", () => elapsed);
    expect(clock().toISOString()).toBe("2031-07-15T21:30:00.000Z");
    elapsed = 90_000;
    expect(clock().toISOString()).toBe("2031-07-15T21:31:30.000Z");
  });

  it("gives two handlers made at different times one time (the offset is from the process's start)", () => {
    const a = clockFrom("2031-01-01T00:00:00Z");
    const b = clockFrom("2031-01-01T00:00:00Z");
    const [ta, tb] = [a().getTime(), b().getTime()];
    expect(Math.abs(ta - tb)).toBeLessThan(1000);
    expect(ta).toBeGreaterThanOrEqual(Date.parse("2031-01-01T00:00:00Z"));
  });

  it("is the wall clock when unset", () => {
    const before = Date.now();
    const t = clockFrom(undefined)().getTime();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
  });

  it("takes only an instant with its zone, naming the setting", () => {
    expect(crawlSettings({ STORYTRAIL_NOW: "2031-07-15T23:30:00Z" }).STORYTRAIL_NOW).toBe(
      "2031-07-15T23:30:00Z",
    );
    expect(() => crawlSettings({ STORYTRAIL_NOW: "2031-07-15T23:30:00" })).toThrow(/STORYTRAIL_NOW/);
    expect(() => crawlSettings({ STORYTRAIL_NOW: "tomorrow" })).toThrow(/STORYTRAIL_NOW/);
  });
});
