/**
 * The politeness rule, the one place the gap between two requests to a host is computed (discovery's
 * HostPacer and fetch's HostPaceTable both call it): the robots.txt Crawl-delay, never below the
 * configured minimum, a publisher's Crawl-delay capped at MAX_CRAWL_DELAY_MS.
 */

/** The least gap between two requests to one host, discovery's and fetch's alike, when the deployment
 * sets none (STORYTRAIL_MIN_HOST_DELAY_MS); a source's min_delay_ms or robots.txt may raise it. */
export const DEFAULT_MIN_HOST_DELAY_MS = 1000;

/**
 * The longest Crawl-delay honoured. A fetch λ's timeout gives each page of its batch 60 s (infra/topology.ts:
 * 10 pages × 60 s + 30 s): a page waits for its host's slot and then fetches under a 30 s deadline
 * (HttpClient's totalTimeoutMs), so 30 s of waiting leaves 30 s for extraction and the writes, where 60 s
 * would leave none. It is also Nutch's and StormCrawler's
 * `fetcher.max.crawl.delay`. At 30 s a host still gets 2,880 requests a day, more than a news
 * outlet publishes; `Crawl-delay: 3600` therefore costs a run 30 s per request, not an hour.
 */
export const MAX_CRAWL_DELAY_MS = 30_000;

/**
 * Milliseconds between two requests to one host: max(minimum, min(Crawl-delay, cap)). A Crawl-delay
 * that is absent, NaN, zero or negative counts as none; Infinity or 1e9 count as the cap. The
 * operator's own minimum is not capped (it is a deliberate setting), but a non-finite or negative
 * one counts as 0.
 */
export function hostIntervalMs(
  minDelayMs: number,
  crawlDelaySeconds?: number | null,
  maxCrawlDelayMs: number = MAX_CRAWL_DELAY_MS,
): number {
  const min = Number.isFinite(minDelayMs) && minDelayMs > 0 ? minDelayMs : 0;
  const crawl =
    typeof crawlDelaySeconds === "number" && crawlDelaySeconds > 0
      ? Math.min(crawlDelaySeconds * 1000, maxCrawlDelayMs)
      : 0;
  return Math.max(min, crawl);
}
