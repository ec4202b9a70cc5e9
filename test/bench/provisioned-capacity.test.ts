import { describe, expect, it } from "vitest";
import type { CostLine } from "../../bench/cost-model";
import { PRICES } from "../../bench/prices";
import { HOURS_PER_MONTH, monthlyUsd, withProvisionedCapacity } from "../../bench/provisioned-capacity";

const line = (item: string, quantity: number, unit: string): CostLine => ({
  service: unit === "GB-s" ? "Lambda" : "DynamoDB",
  item,
  quantity,
  unit,
  usd: quantity * 1e-6,
});

describe("provisioned capacity", () => {
  it("prices request units as the capacity-hours that serve them at the target utilisation", () => {
    const [w, r, storage, lambda] = withProvisionedCapacity(
      [
        line("buckets writes", 8e6, "WRU"),
        line("buckets reads", 4e6, "RRU"),
        line("storage", 3, "GB-month"),
        line("fetch", 1000, "GB-s"),
      ],
      { targetUtilization: 0.7, articlesPerDay: 200_000, minUnitsPerTable: 0 },
    );
    expect(w!.unit).toBe("WCU-hours");
    expect(w!.quantity).toBeCloseTo(8e6 / 3600 / 0.7);
    expect(w!.usd).toBeCloseTo((8e6 / 3600 / 0.7) * 0.00065);
    expect(r!.usd).toBeCloseTo((4e6 / 3600 / 0.7) * 0.00013);
    // Against on demand, a write costs about 41 % as much at 70 %, a read about the same share.
    expect(w!.usd / (8e6 * PRICES.dynamoPerWru)).toBeCloseTo(0.4127, 3);
    expect(storage!.usd).toBe(3e-6); // other lines untouched
    expect(lambda!.usd).toBe(1000e-6);
  });

  it("pays each table's minimum around the clock when the crawl uses less", () => {
    const [quiet] = withProvisionedCapacity([line("sources writes", 100, "WRU")], {
      targetUtilization: 0.7,
      articlesPerDay: 200_000,
      minUnitsPerTable: 1,
    });
    // One unit for 730 hours, shared by the month's 6.08 million articles.
    const millions = (200_000 * HOURS_PER_MONTH) / 24 / 1e6;
    expect(quiet!.quantity).toBeCloseTo(HOURS_PER_MONTH / millions);
  });

  it("turns dollars per million articles into a month of a crawl", () => {
    expect(monthlyUsd(10, 200_000)).toBeCloseTo((10 * 200_000 * 730) / 24 / 1e6);
  });
});
