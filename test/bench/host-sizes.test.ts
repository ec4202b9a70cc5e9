import { expect, it } from "vitest";
import { zipfHostSizes } from "../../bench/host-sizes";

it("spreads the pages exactly, largest first, no host over the cap, every host with a page", () => {
  const sizes = zipfHostSizes(10_000, 5_000_000, { exponent: 1.1, maxPagesPerHost: 20_000 });
  expect(sizes).toHaveLength(10_000);
  expect(sizes.reduce((s, x) => s + x, 0)).toBe(5_000_000);
  expect(sizes[0]).toBe(20_000);
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1);
  for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThanOrEqual(sizes[i - 1]!);
  // Heavy-tailed: the median host publishes a small fraction of the largest.
  expect(sizes[5000]!).toBeLessThan(sizes[0]! / 50);
});

it("exponent 0 spreads evenly; the shares follow rank^-exponent below the cap", () => {
  expect(new Set(zipfHostSizes(100, 1000, { exponent: 0, maxPagesPerHost: 1000 }))).toEqual(new Set([10]));
  const sizes = zipfHostSizes(1000, 1_000_000, { exponent: 1, maxPagesPerHost: 1e9 });
  expect(sizes[0]! / sizes[9]!).toBeCloseTo(10, 0);
});

it("refuses pages that cannot fit under the cap", () => {
  expect(() => zipfHostSizes(10, 101, { exponent: 1, maxPagesPerHost: 10 })).toThrow(/do not fit/);
  expect(() => zipfHostSizes(0, 10, { exponent: 1, maxPagesPerHost: 10 })).toThrow(/positive integer/);
});
