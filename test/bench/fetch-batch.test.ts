import { describe, expect, it } from "vitest";
import { costBreakdown, designFloor, invocationMs, type Settings } from "../../bench/cost-model";
import {
  DAILY_BURST,
  earlyDeliveriesOf,
  earlyPerPage,
  earlyPerPageOfDay,
  fetchBatchRounds,
  fetchBatchWaitMs,
  fetchPageWaitShare,
  withFetchBatchSize,
} from "../../bench/fetch-batch";
import { costSettings, observation } from "../support/cost-fixtures";

const base = { pageLatencyMs: 300, minHostDelayMs: 1000 };
const shape = (pagesPerHost: number, putBacksPerPage: number, concurrentHosts: number) => ({
  ...base,
  fetchBatch: { pagesPerHost, putBacksPerPage, concurrentHosts },
});

describe("a fetch batch's billed wait, pacing out of the function", () => {
  it("bills no host delay: a batch whose pages were each put back once fetches half its deliveries, 3 hosts at once, each waiting for its page", () => {
    // 10 deliveries, each fetched page put back once before: 5 pages of 5 hosts, 2 rounds of 300 ms.
    const once = shape(1, 1, 3);
    expect(fetchBatchRounds(10, once)).toEqual({ fetched: 5, pagesPerHost: 1, hosts: 5, rounds: 2 });
    expect(fetchBatchWaitMs(10, once)).toBe(2 * 300);
    expect(fetchBatchWaitMs(10, { ...once, minHostDelayMs: 5000 })).toBe(2 * 300);
    expect(fetchPageWaitShare(10, once)).toBeCloseTo(2 / 5);
  });

  it("a daily burst's pages come at the slots discovery gave them: those past SQS's 15-minute delay come early, every 15 minutes", () => {
    expect(earlyDeliveriesOf(0)).toBe(0);
    expect(earlyDeliveriesOf(900_000)).toBe(0);
    expect(earlyDeliveriesOf(900_001)).toBe(1);
    expect(earlyDeliveriesOf(1_800_000)).toBe(1);
    expect(earlyDeliveriesOf(1_800_001)).toBe(2);
    // Slots 2 s apart from now: pages 0–450 within 900 s, 451–900 within 1,800 s (once early), 901–999
    // twice early.
    expect(earlyPerPageOfDay([1000, 100], 2000)).toBeCloseTo((450 + 2 * 99) / 1100);
    expect(earlyPerPageOfDay([451, 1], 2000)).toBe(0);
    expect(earlyPerPageOfDay([], 2000)).toBe(0);
    expect(DAILY_BURST.putBacksPerPage).toBeLessThan(0.05);
    // The design's day (Zipf-spread hosts, the largest 20,000 pages over 11 h): about 7.5 a page.
    expect(DAILY_BURST.earlyPerPage).toBeGreaterThan(5);
    expect(DAILY_BURST.earlyPerPage).toBeLessThan(10);
    // Early deliveries come in batches of their own: a batch of 10 fetches all but its put-backs.
    const { fetched } = fetchBatchRounds(10, {});
    expect(fetched).toBeCloseTo(10 / (1 + DAILY_BURST.putBacksPerPage));
  });

  it("a steady crawl's page is due when it comes: every delivery fetched", () => {
    expect(fetchBatchRounds(10, shape(1, 0, 3))).toEqual({
      fetched: 10,
      pagesPerHost: 1,
      hosts: 10,
      rounds: 4,
    });
    expect(fetchBatchWaitMs(10, shape(1, 0, 3))).toBe(4 * 300);
    expect(fetchPageWaitShare(10, shape(1, 0, 10))).toBeCloseTo(0.1);
  });

  it("a host whose interval is within the bound has its pages fetched one after another", () => {
    // 2 hosts of 5 pages at a 100 ms interval, both at once: one chain of 5.
    expect(fetchBatchWaitMs(10, { ...shape(5, 0, 3), minHostDelayMs: 100 })).toBe(300 + 4 * 400);
  });

  it("never has more pages per host than the batch fetches, nor fewer than one", () => {
    expect(fetchBatchRounds(4, shape(10, 0, 3))).toMatchObject({ pagesPerHost: 4, hosts: 1, rounds: 1 });
    expect(fetchBatchRounds(4, shape(0, 0, 3))).toMatchObject({ pagesPerHost: 1, hosts: 4, rounds: 2 });
  });
});

const observed = observation();
const settings = costSettings(base);

describe("the cost model with pacing out of the function", () => {
  it("bills the fetch invocation its rounds of pages and spreads the run's work over the put-back deliveries", () => {
    const steady = invocationMs("fetch", observed, { ...settings, ...shape(1, 0, 3) });
    const burst = invocationMs("fetch", observed, settings);
    expect(steady.waitMs).toBe(200 + 4 * 300);
    // Half the pages of a burst's batch are fetched: half the run's work, 2 rounds of pages.
    expect(burst.waitMs).toBe(100 + 2 * 300);
    expect(burst.cpuMs).toBe(steady.cpuMs / 2);
    const line = (s: Settings, start: string) =>
      costBreakdown(observed, s).find((l) => l.item.startsWith(start))!;
    // Twice the deliveries: twice the invocations, each a put-back's receive share and visibility share.
    expect(line(settings, "fetch queue put-backs").quantity).toBeCloseTo((2 / 10) * 1e6);
    // A run that measured the burst's put-backs itself is not charged them again.
    const measured = { ...observed, fetchPutBacks: 1 };
    expect(
      costBreakdown(measured, settings).find((l) => l.item.startsWith("frontier put-back"))!.quantity,
    ).toBe(0);
    expect(invocationMs("fetch", measured, settings).cpuMs).toBe(
      invocationMs("fetch", observed, settings).cpuMs * 2,
    );
    expect(line({ ...settings, ...shape(1, 0, 3) }, "fetch queue put-backs").quantity).toBe(0);
    expect(line(settings, "frontier put-back notes").quantity).toBe(1e6);
  });

  it("lowers the floor's page wait by the share of it billed", () => {
    const wait = (s: Settings) => designFloor(observed, s).find((l) => l.item.startsWith("fetch waiting"))!;
    expect(wait({ ...settings, ...shape(1, 0, 3) }).quantity).toBeCloseTo(
      wait({ ...settings, ...shape(1, 0, 1) }).quantity * 0.4,
    );
    expect(wait({ ...settings, ...shape(1, 0, 1) }).item).not.toMatch(/billed/);
  });

  it("rescales an observation to another batch size: invocations, their work, and the receives and deletes", () => {
    const one = withFetchBatchSize(observed, 1);
    expect(one.fetchBatchSize).toBe(1);
    // An invocation's log bytes stay: one line for its batch, whatever its size.
    expect(one.functions.fetch).toEqual({ invocationsPerArticle: 1, cpuMs: 10, ioMs: 20, appLogBytes: 3000 });
    // 0.1 sends + 0.1 receives + 0.1 deletes per article at 10 → 0.1 + 1 + 1 at 1.
    expect(one.sqs.fetchQueueRequests).toBeCloseTo(2.1);
    expect(withFetchBatchSize(one, 10).sqs.fetchQueueRequests).toBeCloseTo(0.3);
  });

  it("rescales fetch's sends to the dedup queue with the batch: one send a batch", () => {
    // Observed at batch 10: 0.1 dedup sends an article of 0.3 standard requests.
    const withSends = { ...observed, sqs: { ...observed.sqs, fetchDedupSends: 0.1 } };
    const one = withFetchBatchSize(withSends, 1);
    expect(one.sqs.fetchDedupSends).toBeCloseTo(1);
    expect(one.sqs.standardRequests).toBeCloseTo(observed.sqs.standardRequests + 0.9);
    expect(withFetchBatchSize(one, 10).sqs.standardRequests).toBeCloseTo(observed.sqs.standardRequests);
  });

  it("prices fetch's pacing at the batch's shape: an admission per delivery, a write as each request ends", () => {
    // Discovery's part of the table: 0.1 reads and 0.2 writes per article; the run's fetch part replaced.
    const run = {
      ...observed,
      tables: { hosts: { rru: 1.1, wru: 2.2, storedBytes: 50 } },
      fetchPacing: { rru: 1, wru: 2 },
    };
    const hosts = (s: Settings) => {
      const lines = costBreakdown(run, s);
      return {
        wru: lines.find((l) => l.item === "hosts writes")!.quantity / 1e6,
        rru: lines.find((l) => l.item === "hosts reads")!.quantity / 1e6,
      };
    };
    // Every page put back once: each admitted twice, then its request's end.
    expect(hosts(settings).rru).toBeCloseTo(0.1 + 2);
    expect(hosts(settings).wru).toBeCloseTo(0.2 + 3);
    // A daily burst's early deliveries make no table call: its pages are admitted about once.
    const burst = { ...settings, fetchBatch: DAILY_BURST };
    expect(earlyPerPage(burst)).toBeGreaterThan(0.5);
    expect(hosts(burst).rru).toBeCloseTo(0.1 + 1 + DAILY_BURST.putBacksPerPage);
    expect(hosts(burst).wru).toBeCloseTo(0.2 + 2 + DAILY_BURST.putBacksPerPage);
    // A steady crawl: one admission, one end.
    expect(hosts({ ...settings, ...shape(1, 0, 3) }).rru).toBeCloseTo(0.1 + 1);
    expect(hosts({ ...settings, ...shape(1, 0, 3) }).wru).toBeCloseTo(0.2 + 2);
    // Without the fetch part measured, the table is priced as observed.
    const { fetchPacing: _, ...unsplit } = run;
    expect(costBreakdown(unsplit, settings).find((l) => l.item === "hosts writes")!.quantity).toBeCloseTo(
      2.2e6,
    );
  });
});
