/**
 * The custom CloudWatch metrics, declared once: the functions emit them (Powertools Metrics, EMF) and
 * the stack's alarms and dashboard watch them. A metric an alarm watches must appear here with the
 * function (Powertools `service` dimension) that emits it; test/infra/stack.test.ts checks both sides.
 * No metric has a per-source dimension (each value would be a custom metric of its own: 50,000 at
 * 10,000 sources); per-publisher figures carry the source as a plain property of their EMF document
 * (SOURCE_PROPERTY), which Logs Insights queries (the dashboard's worst-publishers tables).
 * infra/custom-metrics.ts lists every metric with its dimensions and how many there can be.
 */
export const METRICS_NAMESPACE = "storytrail";

/** The Powertools service dimension each emitting function sets. */
export const metricService = {
  dispatch: "dispatch",
  discover: "discover",
  fetch: "fetch",
  dedup: "dedup",
  quality: "quality",
} as const;

export const dispatchMetrics = {
  /** Sources a tick sent to the discover queue (those due in its window). */
  dispatched: "SourcesDispatched",
} as const;

export const discoverMetrics = {
  /** URLs the run's sitemaps and feeds listed (after canonicalisation and the same-host rule). */
  discovered: "UrlsDiscovered",
  /** New or updated URLs claimed on the Frontier and sent to the fetch queue. */
  enqueued: "UrlsEnqueued",
  /** Sources that ran out of their time budget (the rest waits for the next run). */
  sourcesTimedOut: "SourcesTimedOut",
} as const;

export const fetchMetrics = {
  /** One per handled URL, with dimension `outcome`: article, not_modified, or the failure reason. */
  outcomes: "FetchOutcomes",
  /** Pages handled (any outcome); per source in the logs (SOURCE_PROPERTY), extraction share = stored / this. */
  pagesHandled: "PagesHandled",
  /** Articles stored; per source in the logs. */
  articlesStored: "ArticlesStored",
  /** Articles stored with a headline (headline share = this / ArticlesStored); per source in the logs. */
  withHeadline: "ArticlesWithHeadline",
} as const;

export const dedupMetrics = {
  /** Articles whose copy founded a story of its own. */
  newStories: "NewStories",
  /** Articles that joined an existing story. */
  joined: "ArticlesJoined",
  /** Stories retired by a merge. */
  merges: "StoriesMerged",
} as const;

/** The dimension that names a fetch outcome. */
export const OUTCOME_DIMENSION = "outcome";

export const qualityMetrics = {
  /** Quality findings this run (a source may have one per figure). */
  drops: "QualityDrops",
  /** Publishers with at least one finding this run: the drop alarm's metric (alarmed when > 0). */
  publishersWithDrop: "PublishersWithQualityDrop",
  /** The day's articles; per source in the logs (SOURCE_PROPERTY). */
  articles: "ArticlesExtracted",
  /** Median body words of the day's articles; per source in the logs. */
  medianBodyWords: "MedianBodyWords",
  /** Percentage of the day's articles with a valid UTC publication date; per source in the logs. */
  validDateShare: "ValidDateShare",
} as const;

/** The EMF property (not a dimension) that names the source of per-publisher figures. */
export const SOURCE_PROPERTY = "source_id";
