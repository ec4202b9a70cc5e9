/**
 * Where the functions' memory sizes come from: the peak measured at the caps each function enforces,
 * plus headroom, rounded up to a whole MB (Lambda takes any size from 128 MB in 1 MB steps, and bills the
 * fetch function's waits by the MB: 64 MB steps had made it 320 MB for a 275 MB need, 16 % more
 * per page waited). infra/topology.ts reads its sizes from here; the benches that
 * measure these peaks compare each fresh measurement with the figure recorded here, and
 * test/infra/memory-sizing.test.ts checks the topology against it, so a change that raises a peak
 * past its headroom, or a size set by hand, fails a check.
 */

export interface MeasuredPeak {
  /** Peak RSS (getrusage maxrss) of a fresh process doing the function's worst work at its caps. */
  readonly peakMb: number;
  readonly what: string;
  /** The bench that measures it again (and fails when it grows past the headroom). */
  readonly measuredBy: string;
}

/**
 * Headroom over the measured peak. The peaks are measured with V8's heap unbounded (it collects
 * lazily when it may); a function's heap is bounded by its size, and the fetch shapes finish with
 * the heap held to half of it (test/bench/memory-at-caps.test.ts), so 10 % covers run-to-run spread
 * (the extraction alone measured 183 and 189 MB in two runs) and what the measurement leaves out
 * (the S3 client, loaded with the first raw sample).
 */
export const MEMORY_HEADROOM = 1.1;

export const MEASURED_PEAKS = {
  fetch: {
    // One page: 227 MB. Fetch works up to MAX_CONCURRENT_HOSTS (3) of a batch's hosts at once, and three
    // such pages at once measured +23 MB over one (tsx, 128 MB heap: 1 host +85 MB, 3 hosts +108 MB).
    peakMb: 227 + 23,
    what: "the fetch handler's modules and clients loaded, then one 5 MiB page of 650,000 tiny elements extracted (the worst of 8 hostile shapes at the byte cap: 227 MB), plus the 23 MB that 3 such pages at once add over one",
    measuredBy: "npm run bench -- --only memory (bench/memory-at-caps.ts), 2026-12-03",
  },
  discover: {
    peakMb: 445,
    what: "4 sources at once (SOURCE_CONCURRENCY), each reading a 49.5 MB sitemap of 1.1 M entries at the 50,000 URL cap; one source alone peaks at 285 MB",
    measuredBy: "npm run bench -- --only discover (bench/discover-memory.ts), 2026-12-03",
  },
} as const satisfies Record<string, MeasuredPeak>;

export type MeasuredFunction = keyof typeof MEASURED_PEAKS;

/** The memory size a peak calls for: peak × headroom, rounded up to a whole MB, at least Lambda's 128 MB. */
export function memoryForPeak(peakMb: number): number {
  // Rounded to a thousandth first, so that 250 × 1.1 (275.00000000000006 in floating point) is 275.
  return Math.max(128, Math.ceil(Math.round(peakMb * MEMORY_HEADROOM * 1000) / 1000));
}

/** The size the topology gives a measured function. */
export function measuredMemoryMb(fn: MeasuredFunction): number {
  return memoryForPeak(MEASURED_PEAKS[fn].peakMb);
}

/** Whether a fresh measurement is still the recorded peak, within the headroom (and so inside the size). */
export function withinRecordedPeak(fn: MeasuredFunction, measuredPeakMb: number): boolean {
  return measuredPeakMb <= MEASURED_PEAKS[fn].peakMb * MEMORY_HEADROOM;
}
