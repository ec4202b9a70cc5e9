import { describe, expect, it } from "vitest";
import { costBreakdown, type Observed, type Settings, totalUsd } from "../../bench/cost-model";
import { designChangeSavings, scenarioCost, steadyFetchBatch } from "../../bench/cost-scenarios";
import { withProvisionedCapacity } from "../../bench/provisioned-capacity";
import { costSettings } from "../support/cost-fixtures";

const observed: Observed = {
  articles: 100,
  functions: { fetch: { invocationsPerArticle: 0.1, cpuMs: 100, ioMs: 200, appLogBytes: 3000 } },
  fetchBatchSize: 10,
  sqs: { fetchQueueRequests: 0.3, standardRequests: 0.3 },
  tables: {
    articles: { rru: 0, wru: 5, storedBytes: 5000 },
    buckets: { rru: 8, wru: 8, storedBytes: 2000 },
    sources: { rru: 0.001, wru: 0.001, storedBytes: 10 },
  },
  s3: { puts: 0, gets: 0, storedBytes: 0 },
  rawSampleRate: 0.1,
  lshBandsTotal: 8,
};
const daily = costSettings({ memoryMb: { fetch: 256 } });
const steady: Settings = { ...daily, fetchBatch: steadyFetchBatch(3) };
const crawl = { targetUtilization: 0.7, articlesPerDay: 200_000, minUnitsPerTable: 1 };

describe("cost scenarios", () => {
  it("prices a scenario's total and floor in its own capacity mode, and a month of it", () => {
    const onDemand = scenarioCost(observed, { label: "d", settings: daily }, 200_000);
    expect(onDemand.total).toBeCloseTo(totalUsd(costBreakdown(observed, daily)));
    expect(onDemand.ratio).toBeCloseTo(onDemand.total / onDemand.floor);
    expect(onDemand.monthly).toBeCloseTo((onDemand.total * 200_000 * 730) / 24 / 1e6);
    const provisioned = scenarioCost(observed, { label: "p", settings: steady, provisioned: crawl }, 200_000);
    expect(provisioned.total).toBeCloseTo(
      totalUsd(withProvisionedCapacity(costBreakdown(observed, steady), crawl)),
    );
    expect(provisioned.total).toBeLessThan(onDemand.total);
    expect(provisioned.floor).toBeLessThan(onDemand.floor);
  });

  it("measures each change on its own: batching, concurrent hosts, provisioned capacity", () => {
    const [batching, dailyHosts, steadyHosts, capacity] = designChangeSavings(
      observed,
      { label: "d", settings: daily },
      { label: "p", settings: steady, provisioned: crawl },
    );
    expect(batching!.usd).toBeGreaterThan(0);
    // Pages of many hosts in a batch: their waits overlap in a daily burst too.
    expect(dailyHosts!.usd).toBeGreaterThan(0);
    expect(steadyHosts!.usd).toBeGreaterThan(0);
    expect(capacity!.usd).toBeGreaterThan(0);
    const { provisioned: _, ...steadyOnDemand } = { label: "p", settings: steady, provisioned: crawl };
    expect(capacity!.usd).toBeCloseTo(
      scenarioCost(observed, steadyOnDemand, 1).total -
        scenarioCost(observed, { label: "p", settings: steady, provisioned: crawl }, 1).total,
    );
  });
});
