/**
 * The scale model (bench/scale-sim.ts) against the local runtime's measured behaviour, at a size that
 * runs here: the load bench's code (bench/load.ts: loopback hosts, the real handlers on the emulators)
 * and the model given the same hosts, pages, host delay and fetch workers. Same totals; the same pace
 * per host: no request to a host sooner than the delay after the last, and each host's pages spanning
 * what the model's rules give (discovery's slots, a spacing apart, every host at once).
 */
import { expect, inject, it } from "vitest";
import { runLoad } from "../../bench/load";
import { simulateScale } from "../../bench/scale-sim";
import { topology } from "../../infra/topology";
import { MAX_CONCURRENT_HOSTS } from "../../lambdas/fetch";
import { slotSpacingMs } from "../../shared/fetch/host-slots";
import { uniquePrefix } from "../support/unique-prefix";

const HOSTS = 3;
const PAGES = 5;
const DELAY_MS = 400;
const WORKERS = 2;

it("the model and the local runtime agree on totals and per-host pace for the same load", async () => {
  const measured = await runLoad({
    endpoints: inject("endpoints"),
    prefix: uniquePrefix("scale-vs-load"),
    hosts: HOSTS,
    pagesPerHost: PAGES,
    minDelayMs: DELAY_MS,
    workers: WORKERS,
  });
  const trigger = topology.functions.fetch.trigger;
  if (trigger.kind !== "queue") throw new Error("fetch is queue-triggered");
  // Loopback pages take milliseconds: the model's latency is a nominal 50 ms (what matters is the slots).
  const latencyMs = 50;
  const model = simulateScale({
    hostPages: Array.from({ length: HOSTS }, () => PAGES),
    minHostDelayMs: DELAY_MS,
    pageLatencyMs: latencyMs,
    arrival: { kind: "burst", spreadMs: 0 },
    fetch: {
      batchSize: trigger.batchSize,
      maxConcurrency: WORKERS,
      concurrentHosts: MAX_CONCURRENT_HOSTS,
      cpuMsPerPage: 0,
    },
    dedup: { batchSize: 10, maxConcurrency: WORKERS, msPerArticle: 0 },
    seed: 1,
    syndicatedCopies: 0,
  });
  // Same totals: every page fetched once, as many requests per host as pages, nothing put back.
  expect(measured.counts).toMatchObject({ claimed: HOSTS * PAGES, articles: HOSTS * PAGES, pending: 0 });
  expect(measured.hostRequestTimes.map((t) => t.length)).toEqual(Array(HOSTS).fill(PAGES));
  expect(model.pages).toBe(HOSTS * PAGES);
  expect(model.putBacks).toBe(0);
  // The pace: never sooner than the delay, in the runtime as in the model.
  expect(measured.minGapMs).toBeGreaterThanOrEqual(DELAY_MS - 2);
  // Each host's span (first request to last): its pages at discovery's slots, a spacing apart (the
  // delay and a request's allowance, to the whole second: 1 s here), all hosts at once.
  const modelSpanMs = model.fetchedAllS * 1000 - latencyMs;
  expect(modelSpanMs).toBeCloseTo((PAGES - 1) * slotSpacingMs(DELAY_MS), 6);
  for (const times of measured.hostRequestTimes) {
    const spanMs = times.at(-1)! - times[0]!;
    expect(Math.abs(spanMs - modelSpanMs)).toBeLessThan(0.25 * modelSpanMs);
  }
  // All hosts at once, as in the model (one after another the run would take three hosts' spans).
  const first = Math.min(...measured.hostRequestTimes.map((t) => t[0]!));
  const last = Math.max(...measured.hostRequestTimes.map((t) => t.at(-1)!));
  expect(Math.abs(last - first - modelSpanMs)).toBeLessThan(0.25 * modelSpanMs);
});
