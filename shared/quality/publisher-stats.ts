/**
 * Per-publisher extraction quality: a day's figures per source, and the sudden drops worth an alarm
 * (a template change that breaks body or date extraction shows up as a fall against the source's own
 * recent history, not against a global threshold).
 */
import { median } from "../stats/median";

export interface QualitySample {
  readonly article_id: string;
  readonly source_id: string;
  readonly word_count: number;
  readonly published_at: string | null;
}

export interface DailyQuality {
  readonly day: string;
  readonly articles: number;
  readonly median_words: number;
  /** Share of articles with a valid (timezone-qualified, not future) published_at. */
  readonly valid_date_share: number;
}

export type QualityMetric = "median_words" | "valid_date_share" | "articles";

export interface QualityDrop {
  readonly source_id: string;
  readonly metric: QualityMetric;
  readonly today: number;
  readonly baseline: number;
}

export interface DropThresholds {
  /** History days needed before judging a source. */
  readonly minHistoryDays: number;
  /** Articles needed in the day (or in the baseline, for "stopped") before judging. */
  readonly minArticles: number;
  /** Alarm when today's median body length falls below this share of the baseline. */
  readonly wordsRatio: number;
  /** Alarm when the valid-date share falls by more than this many points (0..1). */
  readonly dateShareDrop: number;
}

const DEFAULT_THRESHOLDS: DropThresholds = {
  minHistoryDays: 3,
  minArticles: 10,
  wordsRatio: 0.5,
  dateShareDrop: 0.3,
};

/** How many daily figures a source keeps (bounded: the item never grows past this). */
export const HISTORY_DAYS = 14;

export function summarise(samples: Iterable<QualitySample>, day: string): Map<string, DailyQuality> {
  const bySource = new Map<string, { words: number[]; dated: number }>();
  for (const s of samples) {
    let acc = bySource.get(s.source_id);
    if (!acc) {
      acc = { words: [], dated: 0 };
      bySource.set(s.source_id, acc);
    }
    acc.words.push(s.word_count);
    if (s.published_at) acc.dated++;
  }
  const out = new Map<string, DailyQuality>();
  for (const [source, acc] of bySource) {
    out.set(source, {
      day,
      articles: acc.words.length,
      median_words: median(acc.words),
      valid_date_share: acc.dated / acc.words.length,
    });
  }
  return out;
}

/** Compares a day with the median of the source's history; a source absent today counts as 0 articles. */
export function detectDrops(
  source_id: string,
  today: DailyQuality | undefined,
  history: readonly DailyQuality[],
  t: DropThresholds = DEFAULT_THRESHOLDS,
): QualityDrop[] {
  if (history.length < t.minHistoryDays) return [];
  const baseline = {
    articles: median(history.map((h) => h.articles)),
    median_words: median(history.map((h) => h.median_words)),
    valid_date_share: median(history.map((h) => h.valid_date_share)),
  };
  if (!today || today.articles === 0) {
    return baseline.articles >= t.minArticles
      ? [{ source_id, metric: "articles", today: 0, baseline: baseline.articles }]
      : [];
  }
  if (today.articles < t.minArticles) return [];
  const drops: QualityDrop[] = [];
  if (today.median_words < baseline.median_words * t.wordsRatio) {
    drops.push({
      source_id,
      metric: "median_words",
      today: today.median_words,
      baseline: baseline.median_words,
    });
  }
  if (today.valid_date_share < baseline.valid_date_share - t.dateShareDrop) {
    drops.push({
      source_id,
      metric: "valid_date_share",
      today: today.valid_date_share,
      baseline: baseline.valid_date_share,
    });
  }
  return drops;
}

/** The history with today's figures added (replacing a re-run of the same day), newest last, bounded. */
export function appendHistory(history: readonly DailyQuality[], today: DailyQuality): DailyQuality[] {
  return [...history.filter((h) => h.day !== today.day), today]
    .sort((a, b) => a.day.localeCompare(b.day))
    .slice(-HISTORY_DAYS);
}
