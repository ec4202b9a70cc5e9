import { describe, expect, it } from "vitest";
import { costBreakdown, designFloor, invocationMs, type Settings } from "../../bench/cost-model";
import {
  fetchBatchRounds,
  fetchBatchWaitMs,
  fetchPageWaitShare,
  withFetchBatchSize,
} from "../../bench/fetch-batch";
import { costSettings, observation } from "../support/cost-fixtures";

const base = { pageLatencyMs: 300, minHostDelayMs: 1000 };
const shape = (pagesPerHost: number, backlogged: boolean, concurrentHosts: number) => ({
  ...base,
  fetchBatch: { pagesPerHost, backlogged, concurrentHosts },
});

describe("a fetch batch's billed wait", () => {
  it("without a shape, charges every page the host delay, one after another (a backlogged host fills the batch)", () => {
    expect(fetchBatchWaitMs(10, base)).toBe(10 * (1000 + 300));
    expect(fetchBatchWaitMs(10, { ...base, minHostDelayMs: 0 })).toBe(10 * 300);
    expect(fetchPageWaitShare(10, {})).toBe(1);
  });

  it("overlaps the hosts of a batch: rounds of hosts, each round one host's chain", () => {
    // 10 hosts with one page each, 3 at once: 4 rounds of one page; a free slot waits only for the page.
    expect(fetchBatchRounds(10, shape(1, false, 3))).toEqual({ pagesPerHost: 1, hosts: 10, rounds: 4 });
    expect(fetchBatchWaitMs(10, shape(1, false, 3))).toBe(4 * 300);
    // Backlogged hosts wait out the delay even for their first page in the batch.
    expect(fetchBatchWaitMs(10, shape(1, true, 3))).toBe(4 * 1300);
    // 2 hosts of 5 pages, both at once: one chain of 5 (the first page free, the rest paced).
    expect(fetchBatchWaitMs(10, shape(5, false, 3))).toBe(300 + 4 * 1300);
    // One host at a time is the serial processor: the same as no overlap.
    expect(fetchBatchWaitMs(10, shape(1, true, 1))).toBe(fetchBatchWaitMs(10, base));
    expect(fetchPageWaitShare(10, shape(1, false, 3))).toBeCloseTo(0.4);
    expect(fetchPageWaitShare(10, shape(1, false, 10))).toBeCloseTo(0.1);
  });

  it("never has more pages per host than the batch, nor fewer than one", () => {
    expect(fetchBatchRounds(4, shape(10, true, 3))).toEqual({ pagesPerHost: 4, hosts: 1, rounds: 1 });
    expect(fetchBatchRounds(4, shape(0, true, 3))).toEqual({ pagesPerHost: 1, hosts: 4, rounds: 2 });
  });
});

const observed = observation();
const settings = costSettings(base);

describe("the cost model with concurrent hosts", () => {
  it("bills the fetch invocation its rounds of hosts instead of every page's wait in turn", () => {
    const serial = invocationMs("fetch", observed, settings);
    const steady = invocationMs("fetch", observed, { ...settings, ...shape(1, false, 3) });
    expect(serial.waitMs).toBe(200 + 10 * 1300);
    expect(steady.waitMs).toBe(200 + 4 * 300);
    expect(steady.cpuMs).toBe(serial.cpuMs); // CPU does not overlap
    const fetchUsd = (s: Settings) => costBreakdown(observed, s).find((l) => l.item.startsWith("fetch"))!.usd;
    expect(fetchUsd({ ...settings, ...shape(1, false, 3) })).toBeLessThan(fetchUsd(settings) / 5);
  });

  it("lowers the floor's page wait by the share of it billed", () => {
    const wait = (s: Settings) => designFloor(observed, s).find((l) => l.item.startsWith("fetch waiting"))!;
    expect(wait({ ...settings, ...shape(1, false, 3) }).quantity).toBeCloseTo(wait(settings).quantity * 0.4);
    expect(wait(settings).item).not.toMatch(/billed/);
  });

  it("rescales an observation to another batch size: invocations, their work, and the receives and deletes", () => {
    const one = withFetchBatchSize(observed, 1);
    expect(one.fetchBatchSize).toBe(1);
    expect(one.functions.fetch).toEqual({ invocationsPerArticle: 1, cpuMs: 10, ioMs: 20, appLogBytes: 300 });
    // 0.1 sends + 0.1 receives + 0.1 deletes per article at 10 → 0.1 + 1 + 1 at 1.
    expect(one.sqs.fifoRequests).toBeCloseTo(2.1);
    expect(withFetchBatchSize(one, 10).sqs.fifoRequests).toBeCloseTo(0.3);
  });

  it("prices fetch's pacing at the batch's shape: a chain of p pages reserves once and writes once per page", () => {
    // Measured at one page per host per batch: a read and two writes per page, plus discovery's 0.1/0.2.
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
    // A daily burst: one host's 10 pages in a batch → 1 read and 11 writes per 10 pages.
    const burst = hosts(settings);
    expect(burst.rru).toBeCloseTo(0.1 + 0.1);
    expect(burst.wru).toBeCloseTo(0.2 + 1.1);
    // A steady crawl (one page per host) pays what the run measured.
    const steady = hosts({ ...settings, ...shape(1, false, 3) });
    expect(steady.rru).toBeCloseTo(1.1);
    expect(steady.wru).toBeCloseTo(2.2);
    // Without the fetch part measured, the table is priced as observed.
    const { fetchPacing: _, ...unsplit } = run;
    expect(costBreakdown(unsplit, settings).find((l) => l.item === "hosts writes")!.quantity).toBeCloseTo(
      2.2e6,
    );
  });
});
