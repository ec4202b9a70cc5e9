/**
 * Stores a fetched article with its revision history: reads the stored version when the URL was
 * fetched before, keeps a changed one's earlier body in S3, and writes the item with the bounded list.
 * When the item cannot take the list (DynamoDB's 400 KB), the revision's summary goes to S3 with its
 * reason and the item is written without the list (the count stays, and every body is in S3).
 */
import type { ArticleStore, RevisionStore } from "../crawl/ports";
import type { Article, ArticleRevision } from "../records";
import { NO_REVISIONS, reviseArticle } from "./article-revision";

/** Why a revision's summary is in S3 and not on the item. */
export const ITEM_TOO_LARGE = "item_too_large";

export async function putWithRevisions(
  article: Article,
  deps: {
    readonly articles: ArticleStore;
    readonly revisions: RevisionStore | undefined;
    /** Whether the URL was fetched to an article before (a first fetch reads nothing). */
    readonly known: boolean;
    readonly html: () => string;
    readonly bodyGzip: Uint8Array | undefined;
  },
): Promise<{ stored: "stored" | "too_large"; latest: ArticleRevision | null }> {
  const before = deps.known && deps.revisions ? await deps.articles.get(article.article_id) : null;
  const step = before ? reviseArticle(before, article, deps.html) : null;
  const made = step?.earlierBody != null ? step.latest : null;
  if (before && made && deps.revisions)
    await deps.revisions.putEarlierBody({
      article_id: article.article_id,
      number: made.number,
      body: before.body,
      collected_at: before.collected_at,
    });
  const revised = { ...article, ...(step?.history ?? NO_REVISIONS) };
  const stored = await deps.articles.put(revised, deps.bodyGzip);
  const latest = step?.latest ?? null;
  if (stored === "stored" || revised.revisions.length === 0 || !latest || !deps.revisions)
    return { stored, latest };
  await deps.revisions.putSummary({
    article_id: article.article_id,
    revision: latest,
    reason: ITEM_TOO_LARGE,
  });
  return { stored: await deps.articles.put({ ...revised, revisions: [] }, deps.bodyGzip), latest };
}
