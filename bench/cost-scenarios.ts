/**
 * The cost of a million articles in the two ways a deployment runs: the default (tables on demand, a
 * daily burst of discovery, so each host's backlog fills its fetch batches) and a steady crawl on
 * provisioned tables (discovery every few minutes, so a fetch batch holds about one page per host and the
 * hosts' waits overlap). Each with its design floor priced the same way, and each design change's saving
 * on its own.
 */
import { costBreakdown, designFloor, type Observed, type Settings, totalUsd } from "./cost-model";
import { DAILY_BURST, type FetchBatchShape, withFetchBatchSize } from "./fetch-batch";
import { PRICES, type Prices } from "./prices";
import { monthlyUsd, type ProvisionedCrawl, withProvisionedCapacity } from "./provisioned-capacity";

export interface Scenario {
  readonly label: string;
  readonly settings: Settings;
  /** Absent: the tables are on demand. */
  readonly provisioned?: ProvisionedCrawl;
}

export interface ScenarioCost {
  readonly label: string;
  readonly total: number;
  readonly floor: number;
  readonly ratio: number;
  /** Dollars a month at `articlesPerDay`. */
  readonly monthly: number;
}

/** A steady crawl's fetch batch: about one page per host, due when it comes (none put back),
 * `concurrentHosts` at once. */
export function steadyFetchBatch(concurrentHosts: number): FetchBatchShape {
  return { pagesPerHost: 1, putBacksPerPage: 0, concurrentHosts };
}

function scenarioTotal(obs: Observed, sc: Scenario, prices: Prices = PRICES): number {
  const lines = costBreakdown(obs, sc.settings, prices);
  return totalUsd(sc.provisioned ? withProvisionedCapacity(lines, sc.provisioned, prices) : lines);
}

export function scenarioCost(
  obs: Observed,
  sc: Scenario,
  articlesPerDay: number,
  prices: Prices = PRICES,
): ScenarioCost {
  const total = scenarioTotal(obs, sc, prices);
  const floorLines = designFloor(obs, sc.settings, prices);
  // The floor is priced in the same capacity mode, without the tables' minimums (it counts only what
  // every article must cost).
  const floor = totalUsd(
    sc.provisioned
      ? withProvisionedCapacity(floorLines, { ...sc.provisioned, minUnitsPerTable: 0 }, prices)
      : floorLines,
  );
  return { label: sc.label, total, floor, ratio: total / floor, monthly: monthlyUsd(total, articlesPerDay) };
}

export interface Saving {
  readonly label: string;
  /** Dollars per million articles saved (negative: it costs more). */
  readonly usd: number;
}

/**
 * Each change on its own, against the same run without it: fetch batches of the observed size instead
 * of one message per invocation (daily burst); a batch's hosts worked concurrently instead of one after
 * another (in each scenario); provisioned capacity instead of on demand (steady crawl).
 */
export function designChangeSavings(
  obs: Observed,
  daily: Scenario,
  steady: Scenario & { provisioned: ProvisionedCrawl },
  prices: Prices = PRICES,
): Saving[] {
  const serialHosts = (sc: Scenario): Scenario => ({
    ...sc,
    settings: {
      ...sc.settings,
      ...(sc.settings.fetchBatch
        ? { fetchBatch: { ...sc.settings.fetchBatch, concurrentHosts: 1 } }
        : { fetchBatch: { ...DAILY_BURST, concurrentHosts: 1 } }),
    },
  });
  const total = (o: Observed, sc: Scenario) => scenarioTotal(o, sc, prices);
  const { provisioned: _, ...steadyOnDemand } = steady;
  return [
    {
      label: `fetch batches of ${obs.fetchBatchSize} messages instead of 1 (daily burst)`,
      usd: total(withFetchBatchSize(obs, 1), serialHosts(daily)) - total(obs, serialHosts(daily)),
    },
    {
      label: "a batch's hosts worked concurrently (daily burst)",
      usd: total(obs, serialHosts(daily)) - total(obs, daily),
    },
    {
      label: "a batch's hosts worked concurrently (steady crawl, about one page per host)",
      usd: total(obs, serialHosts(steady)) - total(obs, steady),
    },
    {
      label: `provisioned capacity at ${(steady.provisioned.targetUtilization * 100).toFixed(0)} % utilisation instead of on demand (steady crawl)`,
      usd: total(obs, steadyOnDemand) - total(obs, steady),
    },
  ];
}
