/**
 * The scale model (bench/scale-sim.ts) against the local runtime's measured behaviour, at a size that
 * runs here: the load bench's code (bench/load.ts: loopback hosts, the real handlers on the emulators)
 * and the model given the same hosts, pages, host delay, fetch workers and the emulator's way of filling
 * a batch (one message per host). Same totals; the same pace per host: no request to a host sooner than
 * the delay after the last, and each host's pages taking what the model's rules (the lease's delay from
 * one request's end to the next one's start, one batch per host in flight) give for the runtime's own
 * time per page, read from the gaps it measured.
 */
import { expect, inject, it } from "vitest";
import { runLoad } from "../../bench/load";
import { simulateScale } from "../../bench/scale-sim";
import { topology } from "../../infra/topology";
import { MAX_CONCURRENT_HOSTS } from "../../lambdas/fetch";
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
  // The runtime's own time per page (its request, extraction, writes, the receive between batches):
  // what the measured gaps hold beyond the delay, on average (on a loaded machine they spread widely).
  const gaps = measured.hostRequestTimes.flatMap((t) => t.slice(1).map((x, i) => x - t[i]!));
  const perPageMs = Math.max(0, gaps.reduce((s, g) => s + g, 0) / gaps.length - DELAY_MS);
  const model = (fill: "sqs" | "one-per-group", latencyMs: number) =>
    simulateScale({
      hostPages: Array.from({ length: HOSTS }, () => PAGES),
      minHostDelayMs: DELAY_MS,
      pageLatencyMs: latencyMs,
      arrival: { kind: "burst", spreadMs: 0 },
      fetch: {
        batchSize: trigger.batchSize,
        maxConcurrency: WORKERS,
        concurrentHosts: MAX_CONCURRENT_HOSTS,
        cpuMsPerPage: 0,
        fill,
      },
      dedup: { batchSize: 10, maxConcurrency: WORKERS, msPerArticle: 0 },
      seed: 1,
      syndicatedCopies: 0,
    });
  // Same totals: every page fetched once, as many requests per host as pages.
  expect(measured.counts).toMatchObject({ claimed: HOSTS * PAGES, articles: HOSTS * PAGES, pending: 0 });
  expect(measured.hostRequestTimes.map((t) => t.length)).toEqual(Array(HOSTS).fill(PAGES));
  const local = model("one-per-group", perPageMs);
  expect(local.pages).toBe(HOSTS * PAGES);
  // The pace: never sooner than the delay, in the runtime as in the model (at no latency, exactly it).
  expect(measured.minGapMs).toBeGreaterThanOrEqual(DELAY_MS - 2);
  expect(model("sqs", 0).fetchedAllS).toBeCloseTo(((PAGES - 1) * DELAY_MS) / 1000, 6);
  // Each host's span (first request to last) as the model gives it for the runtime's time per page:
  // (pages - 1) × (delay + time per page), all hosts at once.
  const modelSpanMs = local.fetchedAllS * 1000 - perPageMs;
  expect(modelSpanMs).toBeCloseTo((PAGES - 1) * (DELAY_MS + perPageMs), 6);
  for (const times of measured.hostRequestTimes) {
    const spanMs = times.at(-1)! - times[0]!;
    expect(Math.abs(spanMs - modelSpanMs)).toBeLessThan(0.25 * modelSpanMs);
  }
  // All hosts at once, as in the model (one after another the run would take three hosts' spans).
  const first = Math.min(...measured.hostRequestTimes.map((t) => t[0]!));
  const last = Math.max(...measured.hostRequestTimes.map((t) => t.at(-1)!));
  expect(Math.abs(last - first - modelSpanMs)).toBeLessThan(0.25 * modelSpanMs);
});
