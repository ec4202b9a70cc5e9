/**
 * DynamoDB in provisioned mode with auto scaling, for a steady crawl: the request units a cost breakdown
 * counts per million articles become capacity-hours. One capacity unit serves one request unit a second
 * (3,600 an hour); target tracking keeps consumed at the target utilisation of provisioned, so each unit
 * consumed is paid 1 / utilisation times. Each table is paid at least its auto scaling minimum around the
 * clock, whatever the crawl uses. A burst above the provisioned rate is throttled until scaling catches
 * up: this prices a steady crawl, not the daily burst on-demand mode is for.
 */
import type { CostLine } from "./cost-model";
import { PRICES, type Prices } from "./prices";

export interface ProvisionedCrawl {
  /** Auto scaling's target utilisation, 0–1 (deploy setting target_utilization_percent / 100). */
  readonly targetUtilization: number;
  /** Articles a day, spread evenly over it. */
  readonly articlesPerDay: number;
  /** Capacity units each table's reads and writes keep at least (read_min / write_min); 0 for none. */
  readonly minUnitsPerTable: number;
}

export const HOURS_PER_MONTH = 730;

/** The lines with each DynamoDB request-unit line priced as the capacity-hours that serve it. */
export function withProvisionedCapacity(
  lines: readonly CostLine[],
  crawl: ProvisionedCrawl,
  prices: Prices = PRICES,
): CostLine[] {
  const millionsPerMonth = (crawl.articlesPerDay * HOURS_PER_MONTH) / 24 / 1e6;
  // A table's minimum, paid every hour of the month, shared by the month's articles.
  const minimumHours = (crawl.minUnitsPerTable * HOURS_PER_MONTH) / millionsPerMonth;
  return lines.map((line) => {
    if (line.service !== "DynamoDB" || (line.unit !== "WRU" && line.unit !== "RRU")) return line;
    const write = line.unit === "WRU";
    const hours = Math.max(line.quantity / 3600 / crawl.targetUtilization, minimumHours);
    return {
      ...line,
      quantity: hours,
      unit: write ? "WCU-hours" : "RCU-hours",
      usd: hours * (write ? prices.dynamoPerWcuHour : prices.dynamoPerRcuHour),
    };
  });
}

/** What a month of the crawl costs, from its dollars per million articles. */
export function monthlyUsd(usdPerMillion: number, articlesPerDay: number): number {
  return (usdPerMillion * articlesPerDay * HOURS_PER_MONTH) / 24 / 1e6;
}
