/**
 * The scale model's rules, each on a case small enough to work out by hand: discovery's slots (a host's
 * pages `slotSpacingMs` apart: a 1 s delay and a 300 ms request give 2 s), a batch taking the visible
 * pages of many hosts and working `concurrentHosts` at once, a page whose host is taken going back, the
 * early deliveries of slots past SQS's 15-minute delay (sent again, never held in flight), dedup's batches.
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

it("fetches a host's pages at the slots discovery gave them, 2 s apart, each in its own batch", () => {
  const r = simulateScale(base);
  expect(r.pages).toBe(25);
  expect(r.fetchedAllS).toBeCloseTo((24 * 2000 + 300) / 1000, 6);
  expect(r.fetchedPerSecond.reduce((s, x) => s + x, 0)).toBe(25);
  expect(r.fetchInvocations).toBe(25);
  // Each invocation waits for its page's publisher only.
  expect(r.fetchBilledMs).toBeCloseTo(25 * 300, 6);
  expect(r.peakConcurrency.fetch).toBe(1);
  expect(r.busiestHostPerSecond).toBe(1);
  expect(r).toMatchObject({ putBacks: 0, earlyDeliveries: 0, receivesPerPage: 1, inFlightPeak: 1 });
});

it("a batch takes the pages of every host that is due, and works concurrentHosts of them at once", () => {
  const r = simulateScale({ ...base, hostPages: [2, 2, 2, 2, 2] });
  // Two waves (slots 0 and 2 s), each one batch of 5 pages: two rounds of 300 ms.
  expect(r.fetchInvocations).toBe(2);
  expect(r.fetchBilledMs).toBeCloseTo(2 * 600, 6);
  expect(r.inFlightPeak).toBe(5);
  expect(r.fetchedAllS).toBeCloseTo(2.6, 6);
});

it("a page that comes when its host is still taken goes back to the end of the host's schedule", () => {
  // One batch at a time, its hosts one after another: the first batch's last host (e) ends at 1.5 s and
  // is free at 2.5 s, past the 200 ms a page may wait for it when the second pages come at 2 s.
  const r = simulateScale({
    ...base,
    hostPages: [2, 2, 2, 2, 2],
    fetch: { ...base.fetch, maxConcurrency: 1, concurrentHosts: 1 },
  });
  expect(r.pages).toBe(10);
  expect(r.putBacks).toBe(1);
  expect(r.receivesPerPage).toBeCloseTo(11 / 10, 6);
  // At 0 s five pages, at 2 s four of five, at 4 s (e's next slot, after its schedule) the one put back.
  expect(r.fetchInvocations).toBe(3);
  expect(r.fetchedAllS).toBeCloseTo(4.3, 6);
});

it("pages that wait for a free batch start when one frees, never earlier (the clock never goes back)", () => {
  // Ten hosts' one page each, all due at 0; two batches of one page at once, each 300 ms: five rounds.
  const r = simulateScale({
    ...base,
    hostPages: Array.from({ length: 10 }, () => 1),
    fetch: { ...base.fetch, batchSize: 1, maxConcurrency: 2 },
  });
  expect(r.fetchedAllS).toBeCloseTo(1.5, 6);
  expect(r.fetchMaxWaitS).toBeCloseTo(1.2, 6);
  expect(r.peakConcurrency.fetch).toBe(2);
});

it("a slot past SQS's 15-minute delay comes early every 15 minutes and is sent again: nothing held in flight", () => {
  const r = simulateScale({ ...base, hostPages: [1000] });
  // Pages 451–900 (slots 902–1,800 s) once early, 901–999 twice.
  expect(r.earlyDeliveries).toBe(450 + 2 * 99);
  expect(r.inFlightPeak).toBe(1);
  expect(r.fetchedAllS).toBeCloseTo((999 * 2000 + 300) / 1000, 6);
  // The early deliveries come in batches of their own.
  expect(r.fetchInvocations).toBe(1000 + Math.ceil(648 / 10));
  expect(r.receivesPerPage).toBeCloseTo(1.648, 6);
});

it("dedup takes what waits in batches of up to 10, at most maxConcurrency at once", () => {
  const r = simulateScale({ ...base, hostPages: [10, 10, 10], fetch: { ...base.fetch, maxConcurrency: 3 } });
  // Every 2 s one fetch batch of 3 pages (one of each host), 3 at once; dedup takes them as they end.
  expect(r.fetchInvocations).toBe(10);
  expect(r.dedupInvocations).toBe(10);
  expect(r.peakConcurrency.dedup).toBe(1);
  expect(r.dedupQueuePeak).toBe(3);
  expect(r.dedupMaxWaitS).toBe(0);
  expect(r.dedupedAllS - r.fetchedAllS).toBeCloseTo(0.03, 6);
});

it("a steady crawl finds each host's pages run by run: no page comes early or waits past its run", () => {
  const hostPages = Array.from({ length: 200 }, () => 96);
  const r = simulateScale({
    ...base,
    hostPages,
    arrival: { kind: "steady", intervalMs: 900_000, spreadMs: 900_000 },
    fetch: { ...base.fetch, maxConcurrency: 20 },
  });
  expect(r.pages).toBe(200 * 96);
  expect(r.earlyDeliveries).toBe(0);
  expect(r.fetchMaxWaitS).toBeLessThan(60);
  expect(r.oldestPageS).toBeLessThan(60);
});

it("counts the syndicated story's copies as the first pages of distinct hosts", () => {
  const r = simulateScale({ ...base, hostPages: [3, 3, 3, 3], syndicatedCopies: 3 });
  expect(r.syndicatedPerSecond.reduce((s, x) => s + x, 0)).toBe(3);
});
