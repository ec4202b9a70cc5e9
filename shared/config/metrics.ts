/**
 * The custom CloudWatch metrics, declared once: the functions emit them (Powertools Metrics, EMF) and
 * the stack's alarms and dashboard watch them. A metric an alarm watches must appear here with the
 * function (Powertools `service` dimension) that emits it; test/infra/stack.test.ts checks both sides.
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
  /** Per source (dimension source_id): articles stored. */
  articlesStored: "ArticlesStored",
  /** Per source: articles stored with a headline (headline share = this / ArticlesStored). */
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
