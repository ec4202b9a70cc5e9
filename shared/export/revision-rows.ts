/**
 * The `revisions` table: one row per revision an Articles item keeps (its last 20, record version 8;
 * older items have none), with the article's story. Revisions past the item's bound are counted on
 * the article (`revision_count`) and their earlier bodies are in S3, but have no row.
 */
import type { ArticleRevision } from "../records";

export interface RevisionRow extends ArticleRevision {
  readonly article_id: string;
  readonly story_id: string | null;
  readonly url: string;
  readonly source_id: string;
  /** The article's revisions in all, this row's among them. */
  readonly revision_count: number;
}

export function revisionRows(
  items: readonly Record<string, unknown>[],
  storyOf: (article_id: string) => string | null,
): RevisionRow[] {
  const rows: RevisionRow[] = [];
  for (const item of items) {
    if (!Array.isArray(item.revisions)) continue;
    const article_id = String(item.article_id);
    for (const r of item.revisions as ArticleRevision[])
      rows.push({
        ...r,
        article_id,
        story_id: storyOf(article_id),
        url: String(item.url ?? ""),
        source_id: String(item.source_id ?? ""),
        revision_count: typeof item.revision_count === "number" ? item.revision_count : item.revisions.length,
      });
  }
  return rows.sort((a, b) => a.url.localeCompare(b.url) || a.number - b.number);
}
