/**
 * How long archived items stay hot (DESIGN "Lifecycle"). Articles and a story's member and outlet items:
 * STORYTRAIL_HOT_DAYS after their collection (a story's, after its latest member's: a story still
 * growing stays hot). A story's summary stays as long as a fingerprint may still name it: dedup follows
 * a claim's cluster through its summary (merged_into), and fingerprints live STORYTRAIL_LSH_RETENTION_DAYS,
 * so the summary keeps max(hot days, LSH retention) after the story's latest member. It is one small item
 * a story (~0.4 KB), so the longer window costs little.
 */
import type { CrawlSettings } from "../config/crawl-settings";

export function archiveWindows(
  s: Pick<CrawlSettings, "STORYTRAIL_HOT_DAYS" | "STORYTRAIL_LSH_RETENTION_DAYS">,
) {
  return {
    hotDays: s.STORYTRAIL_HOT_DAYS,
    summaryDays: Math.max(s.STORYTRAIL_HOT_DAYS, s.STORYTRAIL_LSH_RETENTION_DAYS),
  };
}
