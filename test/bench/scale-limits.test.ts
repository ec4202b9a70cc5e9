/** The busiest keys' rates from a simulated day: each row's arithmetic on a result made by hand. */
import { expect, it } from "vitest";
import { limitRows } from "../../bench/scale-limits";
import type { ScaleResult } from "../../bench/scale-sim";
import { observation } from "../support/cost-fixtures";

const sim: ScaleResult = {
  pages: 1000,
  fetchedAllS: 100,
  dedupedAllS: 110,
  peakConcurrency: { fetch: 20, dedup: 10 },
  inFlightPeak: 200,
  fetchInvocations: 100,
  fetchBilledMs: 1e6,
  fetchMaxWaitS: 50,
  oldestPageS: 60,
  earlyDeliveries: 0,
  putBacks: 0,
  receivesPerPage: 1,
  dedupInvocations: 100,
  dedupQueuePeak: 30,
  dedupMaxWaitS: 1,
  fetchedPerSecond: [5, 40, 12],
  dedupedPerSecond: [10, 60, 20],
  busiestHostPerSecond: 1,
  syndicatedPerSecond: [0, 7, 3],
  hostsPast24h: 0,
  events: 300,
};

const rows = (copies: number, over: Partial<ScaleResult> = {}) =>
  limitRows({
    sim: { ...sim, ...over },
    obs: observation({
      tables: {
        clusters: { rru: 2, wru: 4, storedBytes: 1000 },
        articles: { rru: 0, wru: 4, storedBytes: 3000 },
      },
    }),
    syndicatedCopies: copies,
    discoverySpreadS: 10,
    accountConcurrency: 1000,
    otherConcurrency: 7,
  });
const demand = (r: ReturnType<typeof rows>, what: string) => r.find((x) => x.what.startsWith(what))!.demand;

it("prices the busiest keys from the peaks: a host's item, the hot story's bands and partition, the day's index", () => {
  const r = rows(1000);
  // An admission and a request's end: 2 writes a request, at one request a second.
  expect(demand(r, "Hosts")).toBe(2);
  // 7 copies in the busiest second: one band item each (1 WCU), a 200-item query each (13 RCU strong).
  expect(demand(r, "Buckets: the syndicated story's band item, writes")).toBe(7);
  expect(demand(r, "Buckets: the syndicated story's band item, reads")).toBe(7 * 13);
  // Each join re-reads 1,000 outlet items of ~150 B (37 RCU) and the summary (1).
  expect(demand(r, "Clusters: the syndicated story's partition, reads")).toBe(7 * 38);
  expect(demand(r, "Clusters: the syndicated story's partition, writes")).toBe(7 * 5);
  expect(demand(r, "Articles by-day index")).toBe(40);
  expect(demand(r, "Frontier: whole table")).toBe(100);
  expect(demand(r, "Clusters: whole table")).toBe(60 * 4);
  expect(demand(r, "Lambda")).toBe(37);
  expect(demand(r, "Fetch queue: SendMessageBatch")).toBe(10);
  expect(demand(r, "Fetch queue: messages in flight")).toBe(200);
});

it("the hot story's reads grow with its outlets; its copies never reach dedup faster than dedup runs", () => {
  expect(demand(rows(5000), "Clusters: the syndicated story's partition, reads")).toBe(7 * 185);
  expect(
    demand(rows(1000, { syndicatedPerSecond: [500] }), "Buckets: the syndicated story's band item, writes"),
  ).toBe(60);
});
