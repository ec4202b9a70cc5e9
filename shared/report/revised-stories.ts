/**
 * The report's "Most revised stories": stories ordered by how often their articles were revised at
 * their URLs (revision_count: every revision found, also those past the item's bound), each with its
 * articles' headline changes (old → new) from the revisions the items keep.
 */

import type { Dataset } from "../export/dataset";

export interface HeadlineChange {
  readonly number: number;
  readonly collected_at: string;
  readonly from: string | null;
  readonly to: string | null;
}

export interface RevisedArticle {
  readonly article_id: string;
  readonly url: string;
  readonly publication: string | null;
  readonly revision_count: number;
  /** Its kept revisions that changed the headline, oldest first. */
  readonly headline_changes: readonly HeadlineChange[];
}

export interface RevisedStory {
  /** Null for an article dedup has not placed yet (it is listed as a story of its own). */
  readonly story_id: string | null;
  readonly headline: string | null;
  readonly url: string;
  /** Its articles' revisions in all. */
  readonly revisions: number;
  /** Its revised articles, the most revised first. */
  readonly articles: readonly RevisedArticle[];
}

export function mostRevisedStories(d: Dataset, topN: number): RevisedStory[] {
  const articles = new Map(d.articles.map((a) => [a.article_id, a]));
  // The revision rows come one per revision, each with its article's count and story.
  const revised = new Map<
    string,
    { story_id: string | null; article: RevisedArticle; changes: HeadlineChange[] }
  >();
  for (const r of d.revisions) {
    let a = revised.get(r.article_id);
    if (!a) {
      const changes: HeadlineChange[] = [];
      a = {
        story_id: r.story_id,
        changes,
        article: {
          article_id: r.article_id,
          url: r.url,
          publication: articles.get(r.article_id)?.publication ?? null,
          revision_count: r.revision_count,
          headline_changes: changes,
        },
      };
      revised.set(r.article_id, a);
    }
    if (r.headline_changed)
      a.changes.push({
        number: r.number,
        collected_at: r.collected_at,
        from: r.previous_headline,
        to: r.headline,
      });
  }
  const byStory = new Map<string, RevisedArticle[]>();
  for (const { story_id, article, changes } of revised.values()) {
    changes.sort((x, y) => x.number - y.number);
    const key = story_id ?? `article:${article.article_id}`;
    byStory.set(key, [...(byStory.get(key) ?? []), article]);
  }
  const stories = new Map(d.stories.map((s) => [s.story_id, s]));
  return [...byStory]
    .map(([key, list]): RevisedStory => {
      const sorted = [...list].sort(
        (x, y) => y.revision_count - x.revision_count || x.url.localeCompare(y.url),
      );
      const first = sorted[0] as RevisedArticle;
      const story = stories.get(key);
      return {
        story_id: story?.story_id ?? null,
        headline: story?.headline ?? articles.get(first.article_id)?.headline ?? null,
        url: story?.canonical_url ?? first.url,
        revisions: sorted.reduce((n, a) => n + a.revision_count, 0),
        articles: sorted,
      };
    })
    .sort((x, y) => y.revisions - x.revisions || x.url.localeCompare(y.url))
    .slice(0, topN);
}
