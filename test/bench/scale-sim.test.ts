/**
 * The scale model's rules, each on a case small enough to work out by hand: the Hosts lease's pace
 * (delay from one request's end to the next one's start), one batch per host in flight, SQS filling a
 * batch from one group first and then from others, a batch's hosts worked concurrently, dedup's batches.
 */
import { expect, it } from "vitest";
import { type ScaleInputs, simulateScale } from "../../bench/scale-sim";

const base: ScaleInputs = {
  hostPages: [25],
  minHostDelayMs: 1000,
  pageLatencyMs: 300,
  arrival: { kind: "burst", spreadMs: 0 },
  fetch: { batchSize: 10, maxConcurrency: 5, concurrentHosts: 3, cpuMsPerPage: 0 },
  dedup: { batchSize: 10, maxConcurrency: 2, msPerArticle: 10 },
  seed: 1,
  syndicatedCopies: 0,
};

it("paces a host from the end of one request to the start of the next, across its batches", () => {
  const r = simulateScale(base);
  // 25 pages: each starts 1,000 ms after the previous one ended and takes 300 ms.
  expect(r.fetchedAllS).toBeCloseTo((24 * 1300 + 300) / 1000, 6);
  expect(r.fetchedPerSecond.reduce((s, x) => s + x, 0)).toBe(25);
  expect(r.pages).toBe(25);
  // One group's messages in flight at a time, whatever the concurrency: batches of 10, 10, 5.
  expect(r.fetchInvocations).toBe(3);
  expect(r.peakConcurrency.fetch).toBe(1);
  expect(r.fifoInFlightPeak).toBe(10);
  expect(r.pagesPerHostInBatch).toBeCloseTo(25 / 3, 6);
  expect(r.busiestHostPerSecond).toBe(1);
  // A backlogged host's batch waits out the delay even before its first page (the previous batch's
  // last request just ended): 1,300 ms a page, but for the very first page of the day.
  expect(r.fetchBilledMs).toBeCloseTo(25 * 1300 - 1000, 6);
});

it("extraction's CPU after a page overlaps the host delay, and past it delays the next request", () => {
  // 400 ms: the pages keep their pace; the batch ends with the last page's extraction.
  expect(simulateScale({ ...base, fetch: { ...base.fetch, cpuMsPerPage: 400 } }).fetchedAllS).toBeCloseTo(
    31.9,
    6,
  );
  // 1,500 ms: each next request waits for it (1,800 ms from start to start).
  const slow = simulateScale({ ...base, hostPages: [3], fetch: { ...base.fetch, cpuMsPerPage: 1500 } });
  expect(slow.fetchedAllS).toBeCloseTo((2 * 1800 + 300 + 1500) / 1000, 6);
});

it("fills a batch from other hosts when one runs short, and works up to concurrentHosts of them at once", () => {
  const r = simulateScale({ ...base, hostPages: [2, 2, 2, 2, 2] });
  expect(r.fetchInvocations).toBe(1);
  expect(r.pagesPerHostInBatch).toBe(2);
  // 5 hosts, 3 at a time: two rounds of a two-page chain (300 + 1,300 ms).
  expect(r.fetchBilledMs).toBeCloseTo(2 * 1600, 6);
  expect(r.fifoInFlightPeak).toBe(10);
});

it("serves the host whose oldest message is oldest first, one batch per slot", () => {
  // Concurrency 1: the host discovered first keeps the slot until its pages are done.
  const r = simulateScale({
    ...base,
    hostPages: [20, 20],
    arrival: { kind: "burst", spreadMs: 1 },
    fetch: { ...base.fetch, maxConcurrency: 1 },
  });
  expect(r.peakConcurrency.fetch).toBe(1);
  expect(r.fetchInvocations).toBe(4);
  // Each host's 20 pages: 19 × 1,300 + 300 ms; the second waits for the first's two batches.
  expect(r.fetchedAllS).toBeGreaterThanOrEqual((2 * (19 * 1300 + 300)) / 1000 - 1.3);
  expect(r.hostsPast24h).toBe(0);
  // With two slots they run side by side.
  const two = simulateScale({ ...base, hostPages: [20, 20], fetch: { ...base.fetch, maxConcurrency: 2 } });
  expect(two.fetchedAllS).toBeCloseTo((19 * 1300 + 300) / 1000, 3);
  expect(two.peakConcurrency.fetch).toBe(2);
});

it("dedup takes what waits in batches of up to 10, at most maxConcurrency at once", () => {
  const r = simulateScale({ ...base, hostPages: [10, 10, 10], fetch: { ...base.fetch, maxConcurrency: 3 } });
  // Three fetch batches end together: 30 articles, two dedup slots, 100 ms a batch of 10.
  expect(r.dedupInvocations).toBe(3);
  expect(r.peakConcurrency.dedup).toBe(2);
  expect(r.dedupQueuePeak).toBe(30);
  expect(r.dedupMaxWaitS).toBeCloseTo(0.1, 6);
  expect(r.dedupedAllS - r.fetchedAllS).toBeCloseTo(0.2, 6);
});

it("a steady crawl finds each host's pages run by run, so its batches hold about one page per host", () => {
  const hostPages = Array.from({ length: 200 }, () => 96);
  const r = simulateScale({
    ...base,
    hostPages,
    arrival: { kind: "steady", intervalMs: 900_000, spreadMs: 900_000 },
    fetch: { ...base.fetch, maxConcurrency: 20 },
  });
  expect(r.pages).toBe(200 * 96);
  expect(r.pagesPerHostInBatch).toBeCloseTo(1, 6);
  // A run's page waits seconds, not until the next run.
  expect(r.fetchMaxWaitS).toBeLessThan(60);
});

it("counts the syndicated story's copies as the first pages of distinct hosts", () => {
  const r = simulateScale({ ...base, hostPages: [3, 3, 3, 3], syndicatedCopies: 3 });
  expect(r.syndicatedPerSecond.reduce((s, x) => s + x, 0)).toBe(3);
});
