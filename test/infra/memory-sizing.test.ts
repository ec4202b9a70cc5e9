/**
 * The topology's memory sizes are derived from measured peaks (infra/memory-sizing.ts), not set by
 * hand: each measured function has exactly the size its peak and the headroom call for.
 */
import { describe, expect, it } from "vitest";
import {
  MEASURED_PEAKS,
  type MeasuredFunction,
  memoryForPeak,
  v8HeapFlags,
  withinRecordedPeak,
} from "../../infra/memory-sizing";
import { topology } from "../../infra/topology";

describe("memory sizes from measurements", () => {
  for (const fn of Object.keys(MEASURED_PEAKS) as MeasuredFunction[]) {
    it(`${fn}: the size is the measured peak plus headroom, rounded up to a whole MB`, () => {
      const { peakMb } = MEASURED_PEAKS[fn];
      expect(topology.functions[fn].memoryMb).toBe(memoryForPeak(peakMb));
      expect(topology.functions[fn].memoryMb).toBeGreaterThan(peakMb * 1.05);
    });
  }

  it("rounds up to a whole MB with 10 % headroom, never below Lambda's 128 MB", () => {
    expect(memoryForPeak(250)).toBe(275);
    expect(memoryForPeak(233)).toBe(257);
    expect(memoryForPeak(445)).toBe(490);
    expect(memoryForPeak(20)).toBe(128);
  });

  it("gives V8 the heap Lambda's Node.js bootstrap gives a size: young a tenth, old the rest", () => {
    expect(v8HeapFlags(197)).toEqual(["--max-semi-space-size=9", "--max-old-space-size=178"]);
    expect(v8HeapFlags(1024)).toEqual(["--max-semi-space-size=51", "--max-old-space-size=922"]);
  });

  it("a fresh measurement past the recorded peak's headroom fails the benches' check", () => {
    expect(withinRecordedPeak("discover", 445)).toBe(true);
    expect(withinRecordedPeak("discover", 500)).toBe(false);
  });
});
