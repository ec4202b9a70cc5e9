/**
 * Every custom CloudWatch metric the stack's functions can publish, with its dimensions and how many
 * CloudWatch metrics it is (one per combination of dimension values; each is billed per metric-hour in
 * which it is published). None depends on the number of sources: per-publisher figures are log
 * properties (shared/config/metrics.ts). The cost model prices these; test/infra/custom-metrics.test.ts
 * checks a local run emits nothing outside them, with 10 and with 200 sources alike.
 */
import {
  dedupMetrics,
  discoverMetrics,
  dispatchMetrics,
  fetchMetrics,
  METRICS_NAMESPACE,
  metricService,
  OUTCOME_DIMENSION,
  qualityMetrics,
} from "../shared/config/metrics";
import { failureReason } from "../shared/records";

export interface CustomMetric {
  readonly namespace: string;
  readonly name: string;
  /** The function that publishes it (its Powertools `service` dimension value). */
  readonly service: string;
  readonly dimensions: readonly string[];
  /** CloudWatch metrics it makes: the number of dimension-value combinations it can take. */
  readonly count: number;
}

/** The values of a fetch outcome (lambdas/fetch.ts): a page's kind, a malformed message, or why it failed. */
const FETCH_OUTCOMES = ["article", "not_modified", "malformed", ...failureReason.options] as const;

const perService = (service: string, names: Readonly<Record<string, string>>): CustomMetric[] =>
  Object.values(names).map((name) => ({
    namespace: METRICS_NAMESPACE,
    name,
    service,
    dimensions: ["service"],
    count: 1,
  }));

export const CUSTOM_METRICS: readonly CustomMetric[] = [
  ...perService(metricService.dispatch, dispatchMetrics),
  ...perService(metricService.discover, discoverMetrics),
  ...perService(
    metricService.fetch,
    Object.fromEntries(Object.entries(fetchMetrics).filter(([, name]) => name !== fetchMetrics.outcomes)),
  ),
  {
    namespace: METRICS_NAMESPACE,
    name: fetchMetrics.outcomes,
    service: metricService.fetch,
    dimensions: ["service", OUTCOME_DIMENSION],
    count: FETCH_OUTCOMES.length,
  },
  ...perService(metricService.dedup, dedupMetrics),
  ...perService(metricService.quality, qualityMetrics),
];
