/**
 * What the stack costs a month whatever it crawls: custom CloudWatch metrics, alarms, the dashboard, the
 * alarm topic's KMS key, the queues Lambda polls while they are empty, and the scheduled invocations.
 * The crawl's own costs are per article (cost-model.ts); these are per month, beside them.
 *
 * Custom metrics are the line that once grew with the source list (a `source_id` dimension on five
 * metrics: 50,000 metrics, $15,000 a month, at 10,000 sources). The target design (../shared/DESIGN.md)
 * publishes a bounded set (CUSTOM_METRICS); `customMetrics` is an input so an operator can price another.
 */
import { CUSTOM_METRICS } from "../infra/custom-metrics";
import { type FunctionName, functionNames, queueNames, topology } from "../infra/topology";
import { type CostLine, costLine } from "./cost-model";
import { PRICES, type Prices } from "./prices";

export interface FixedMonthly {
  /** Metric × dimension-value series the stack publishes (each one a billed custom metric). */
  readonly customMetrics: number;
  readonly alarms: number;
  readonly dashboards: number;
  readonly kmsKeys: number;
  /** Queues an event source mapping polls all month, by kind (empty receives are billed). */
  readonly polledQueues: { readonly fifo: number; readonly standard: number };
  readonly scheduledInvocationsPerMonth: number;
}

/** The custom metrics the stack can publish (infra/custom-metrics.ts): none grows with the sources. */
export function targetCustomMetricCount(): number {
  return CUSTOM_METRICS.reduce((n, m) => n + m.count, 0);
}

/**
 * Lambda's pollers long-poll an idle queue: about 657,000 empty receives a month per queue (5 pollers,
 * 20-second polls: 5 × 3 a minute × 43,800 minutes). During a crawl they are the receives the cost model
 * already counts per article, so this slightly over-counts.
 */
const EMPTY_RECEIVES_PER_QUEUE_MONTH = 5 * 3 * 43_800;
/** Alarms besides two per function (errors, throttles) and two per queue (dead letters, age): the
 * quality drop alarm, the backfill run's and the archive run's failure alarms (infra/stack.ts, infra/backfill.ts,
 * infra/archive-steps.ts). */
const OTHER_ALARMS = 3;

/** The stack as the topology declares it: alarms, polled queues and schedules follow from it. */
export function stackFixedMonthly(customMetrics: number = targetCustomMetricCount()): FixedMonthly {
  const polled = { fifo: 0, standard: 0 };
  let scheduled = 0;
  for (const fn of functionNames as FunctionName[]) {
    const t = topology.functions[fn].trigger;
    if (t.kind === "queue") polled[topology.queues[t.queue].fifo ? "fifo" : "standard"]++;
    // A daily cron: 30 a month (the dispatcher's cadences, when they come, add theirs).
    if (t.kind === "schedule") scheduled += 30;
  }
  return {
    customMetrics,
    alarms: 2 * functionNames.length + 2 * queueNames.length + OTHER_ALARMS,
    dashboards: 1,
    kmsKeys: 1,
    polledQueues: polled,
    scheduledInvocationsPerMonth: scheduled,
  };
}

export function fixedMonthlyLines(f: FixedMonthly, prices: Prices = PRICES): CostLine[] {
  const month = "per month";
  return [
    costLine(
      "CloudWatch",
      `custom metrics (${f.customMetrics} series, published every hour)`,
      f.customMetrics,
      month,
      prices.cloudwatchMetricPerMonth,
    ),
    costLine("CloudWatch", `alarms (${f.alarms})`, f.alarms, month, prices.cloudwatchAlarmPerMonth),
    costLine("CloudWatch", "dashboard", f.dashboards, month, prices.cloudwatchDashboardPerMonth),
    costLine("KMS", "the alarm topic's key", f.kmsKeys, month, prices.kmsKeyPerMonth),
    costLine(
      "SQS",
      `empty receives (${f.polledQueues.fifo} FIFO + ${f.polledQueues.standard} standard queues polled)`,
      EMPTY_RECEIVES_PER_QUEUE_MONTH * (f.polledQueues.fifo + f.polledQueues.standard),
      "requests",
      (f.polledQueues.fifo * prices.sqsFifoPerRequest +
        f.polledQueues.standard * prices.sqsStandardPerRequest) /
        Math.max(1, f.polledQueues.fifo + f.polledQueues.standard),
    ),
    costLine(
      "EventBridge Scheduler",
      "scheduled invocations (14 M a month free; priced)",
      f.scheduledInvocationsPerMonth,
      "invocations",
      prices.schedulerPerInvocation,
    ),
  ];
}

/** The source_id dimension's cost before the target design: five metrics per source. */
export function perSourceMetricsMonthly(sources: number, prices: Prices = PRICES): number {
  return 5 * sources * prices.cloudwatchMetricPerMonth;
}
