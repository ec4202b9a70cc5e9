/**
 * The custom CloudWatch metrics, declared once: the functions emit them (Powertools Metrics, EMF) and
 * the stack's alarms and dashboard watch them. A metric an alarm watches must appear here with the
 * function (Powertools `service` dimension) that emits it; test/infra/stack.test.ts checks both sides.
 */
export const METRICS_NAMESPACE = "storytrail";

/** The Powertools service dimension each emitting function sets. */
export const metricService = { quality: "quality" } as const;

export const qualityMetrics = {
  /** Sources whose quality fell suddenly against their own history this run (alarmed when > 0). */
  drops: "QualityDrops",
  /** Per source (dimension source_id): the day's articles. */
  articles: "ArticlesExtracted",
  /** Per source: median body words of the day's articles. */
  medianBodyWords: "MedianBodyWords",
  /** Per source: percentage of the day's articles with a valid UTC publication date. */
  validDateShare: "ValidDateShare",
} as const;

/** The dimension that names a source on per-publisher metrics. */
export const SOURCE_DIMENSION = "source_id";
