/**
 * What the report shows, computed from the dataset: the top stories, each one's spread, the outlets
 * quickest to pick up a story someone else published first, the most revised stories, and extraction
 * quality per publisher.
 */

import type { Dataset, StoryRow } from "../export/dataset";
import { median } from "../stats/median";
import { mostRevisedStories, type RevisedStory } from "./revised-stories";

export interface OutletSpeed {
  readonly publication: string;
  /** Stories it carried after another outlet had published them. */
  readonly pickups: number;
  readonly median_delay_seconds: number;
}

export interface PublisherQuality {
  readonly source_id: string;
  readonly publication: string;
  readonly urls: number;
  readonly articles: number;
  readonly median_words: number;
  /** Shares of its articles (0..1). */
  readonly with_date: number;
  readonly with_headline: number;
  readonly paywalled: number;
  readonly failures: Readonly<Record<string, number>>;
}

export interface ReportData {
  readonly generated_at: string;
  readonly totals: { stories: number; multi_outlet: number; articles: number; outlets: number };
  /** Stories by outlet count (the most first), at most `topN`. */
  readonly top: readonly StoryRow[];
  readonly fastest: readonly OutletSpeed[];
  /** Stories by their articles' revisions (the most first), at most `topN`; none without revisions. */
  readonly most_revised: readonly RevisedStory[];
  readonly quality: readonly PublisherQuality[];
}

function fastestOutlets(stories: readonly StoryRow[]): OutletSpeed[] {
  const delays = new Map<string, number[]>();
  for (const s of stories) {
    if (s.outlet_count < 2) continue;
    // The first outlet published it; the others picked it up.
    for (const o of s.outlets.slice(1)) {
      if (o.delay_seconds === null) continue;
      delays.set(o.publication, [...(delays.get(o.publication) ?? []), o.delay_seconds]);
    }
  }
  return [...delays]
    .map(([publication, d]) => ({ publication, pickups: d.length, median_delay_seconds: median(d) }))
    .sort((a, b) => a.median_delay_seconds - b.median_delay_seconds || b.pickups - a.pickups);
}

function quality(d: Dataset, frontier: readonly Record<string, unknown>[]): PublisherQuality[] {
  const by = new Map<
    string,
    {
      publication: string;
      words: number[];
      dated: number;
      headed: number;
      paywalled: number;
      urls: number;
      failures: Record<string, number>;
    }
  >();
  const entry = (source: string) => {
    let e = by.get(source);
    if (!e) {
      e = { publication: source, words: [], dated: 0, headed: 0, paywalled: 0, urls: 0, failures: {} };
      by.set(source, e);
    }
    return e;
  };
  for (const a of d.articles) {
    const e = entry(a.source_id);
    if (a.publication) e.publication = a.publication;
    e.words.push(a.word_count);
    if (a.published_at) e.dated++;
    if (a.headline) e.headed++;
    if (a.is_accessible_for_free === false) e.paywalled++;
  }
  for (const f of frontier) {
    const e = entry(String(f.source_id ?? "unknown"));
    e.urls++;
    if (f.status === "failed") {
      const reason = String(f.reason ?? "unknown");
      e.failures[reason] = (e.failures[reason] ?? 0) + 1;
    }
  }
  return [...by]
    .map(([source_id, e]) => {
      const n = e.words.length;
      const share = (k: number) => (n ? k / n : 0);
      return {
        source_id,
        publication: e.publication,
        urls: e.urls,
        articles: n,
        median_words: median(e.words),
        with_date: share(e.dated),
        with_headline: share(e.headed),
        paywalled: share(e.paywalled),
        failures: e.failures,
      };
    })
    .sort((a, b) => a.publication.localeCompare(b.publication));
}

export function reportData(
  d: Dataset,
  frontier: readonly Record<string, unknown>[],
  opts: { now: Date; topN?: number },
): ReportData {
  return {
    generated_at: opts.now.toISOString(),
    totals: {
      stories: d.stories.length,
      multi_outlet: d.stories.filter((s) => s.outlet_count > 1).length,
      articles: d.articles.length,
      outlets: new Set(d.articles.map((a) => a.source_id)).size,
    },
    top: d.stories.slice(0, opts.topN ?? 15),
    fastest: fastestOutlets(d.stories),
    most_revised: mostRevisedStories(d, opts.topN ?? 15),
    quality: quality(d, frontier),
  };
}
