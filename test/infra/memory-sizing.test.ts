/**
 * The topology's memory sizes are derived from measured peaks (infra/memory-sizing.ts), not set by
 * hand: each measured function has exactly the size its peak and the headroom call for.
 */

import { describe, expect, it } from "vitest";
import {
  LAMBDA_NODE_MAJOR,
  MEASURED_PEAKS,
  type MeasuredFunction,
  memoryForPeak,
  recordedPeakMb,
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

  it("a fresh measurement past the peak's headroom on its own Node.js fails the check; Lambda's sizes", () => {
    expect(withinRecordedPeak("discover", 561, LAMBDA_NODE_MAJOR)).toBe(true);
    expect(withinRecordedPeak("discover", 618, LAMBDA_NODE_MAJOR)).toBe(false);
    // Node 20 starts smaller: its own record holds it to that (179 × 1.1 = 196.9), Lambda's does not.
    expect(withinRecordedPeak("fetch", 196, 20)).toBe(true);
    expect(withinRecordedPeak("fetch", 200, 20)).toBe(false);
    expect(withinRecordedPeak("fetch", 200, LAMBDA_NODE_MAJOR)).toBe(true);
    // A major with no measurement of its own is held to Lambda's.
    expect(recordedPeakMb("fetch", 22)).toBe(MEASURED_PEAKS.fetch.peakMb);
    expect(topology.functions.fetch.memoryMb).toBe(memoryForPeak(recordedPeakMb("fetch", LAMBDA_NODE_MAJOR)));
  });
});
