import { describe, expect, it } from "vitest";
import { hostIntervalMs, MAX_CRAWL_DELAY_MS } from "../../../shared/fetch/crawl-delay";

describe("hostIntervalMs (the politeness rule)", () => {
  it("is the Crawl-delay when it is longer than the minimum, else the minimum", () => {
    expect(hostIntervalMs(1000, 5)).toBe(5000);
    expect(hostIntervalMs(1000, 0.2)).toBe(1000);
    expect(hostIntervalMs(1000, null)).toBe(1000);
    expect(hostIntervalMs(1000)).toBe(1000);
  });

  it("caps a publisher's Crawl-delay: 3600, 1e9, 1e308 and Infinity all wait MAX_CRAWL_DELAY_MS", () => {
    for (const huge of [3600, 1e9, 1e308, Number.POSITIVE_INFINITY]) {
      expect(hostIntervalMs(1000, huge), String(huge)).toBe(MAX_CRAWL_DELAY_MS);
    }
    expect(MAX_CRAWL_DELAY_MS).toBe(30_000);
  });

  it("reads NaN, zero, negative and -Infinity as no Crawl-delay", () => {
    for (const junk of [Number.NaN, 0, -1, -1e9, Number.NEGATIVE_INFINITY]) {
      expect(hostIntervalMs(1000, junk), String(junk)).toBe(1000);
    }
  });

  it("keeps the operator's minimum even above the cap, and reads a broken minimum as 0", () => {
    expect(hostIntervalMs(120_000, 3600)).toBe(120_000);
    expect(hostIntervalMs(Number.NaN, 2)).toBe(2000);
    expect(hostIntervalMs(-5, null)).toBe(0);
  });
});
