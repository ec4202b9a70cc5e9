import { expect, it } from "vitest";
import { totalUsd } from "../../bench/cost-model";
import {
  fixedMonthlyLines,
  perSourceMetricsMonthly,
  stackFixedMonthly,
  targetCustomMetricCount,
} from "../../bench/fixed-costs";
import { PRICES } from "../../bench/prices";
import { functionNames, queueNames } from "../../infra/topology";
import { failureReason } from "../../shared/records";

it("counts the stack's alarms, polled queues and schedules from the topology", () => {
  const f = stackFixedMonthly(10);
  expect(f.customMetrics).toBe(10);
  // The quality drop alarm and the backfill and archive runs' failure alarms.
  expect(f.alarms).toBe(2 * functionNames.length + 2 * queueNames.length + 3);
  // The fetch, discover and dedup queues: all standard since pacing left the fetch function.
  expect(f.polledQueues).toEqual({ fifo: 0, standard: 3 });
  expect(f.dashboards).toBe(1);
});

it("prices each item a month: metrics, alarms, the dashboard, the key, idle polls, schedules", () => {
  const f = {
    ...stackFixedMonthly(42),
    polledQueues: { fifo: 1, standard: 2 },
    scheduledInvocationsPerMonth: 3000,
  };
  const lines = fixedMonthlyLines(f);
  const usd = (service: string, item: string) =>
    lines.find((l) => l.service === service && l.item.startsWith(item))?.usd;
  expect(usd("CloudWatch", "custom metrics")).toBeCloseTo(42 * 0.3, 9);
  expect(usd("CloudWatch", "alarms")).toBeCloseTo(f.alarms * 0.1, 9);
  expect(usd("CloudWatch", "dashboard")).toBe(3);
  expect(usd("KMS", "the alarm topic")).toBe(1);
  // One FIFO and two standard queues, ~657,000 idle receives each, at their own prices.
  expect(usd("SQS", "empty receives")).toBeCloseTo(
    657_000 * (PRICES.sqsFifoPerRequest + 2 * PRICES.sqsStandardPerRequest),
    6,
  );
  expect(usd("EventBridge Scheduler", "scheduled")).toBeCloseTo(3000 / 1e6, 9);
  expect(totalUsd(lines)).toBeCloseTo(
    lines.reduce((s, l) => s + l.usd, 0),
    9,
  );
});

it("the target design's custom metrics do not depend on the sources; a source_id dimension would", () => {
  // Every metric once per function's service, FetchOutcomes once per outcome: no count grows with sources.
  expect(targetCustomMetricCount()).toBeGreaterThan(failureReason.options.length);
  expect(targetCustomMetricCount()).toBeLessThan(100);
  expect(perSourceMetricsMonthly(10_000)).toBeCloseTo(15_000, 6);
  expect(perSourceMetricsMonthly(200)).toBeCloseTo(300, 6);
});
