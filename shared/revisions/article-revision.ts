/**
 * What a fetch of a known article adds to its history. The versions are compared on the headline and
 * a hash of the whitespace-normalised body, so a new lastmod or a re-rendered page with the same text
 * adds nothing; a change makes revision n = the previous count + 1, whose earlier body goes to the raw
 * samples' bucket (revisionBodyKey) and whose summary joins the item's list.
 *
 * The list keeps the last REVISIONS_KEPT = 20: a summary is at most ~4 KB (two 300-character headlines,
 * two 200-character samples and a 200-character notice at 3 bytes a character, the rest < 400 bytes),
 * so 20 take ≤ 80 KB of the 130 KB the field caps leave under DynamoDB's 400 KB (field-caps.ts); a page
 * that flips between two versions on every fetch keeps 20 and counts the rest (`revision_count`), each
 * earlier body still in S3.
 */
import { createHash } from "node:crypto";
import { cutChars } from "../extract/field-caps";
import type { Article, ArticleRevision } from "../records";
import { revisionNotice } from "./revision-notice";
import { wordDiff } from "./word-diff";

export const REVISIONS_KEPT = 20;

/** Characters of each headline a revision keeps (the article keeps the whole one). */
const REVISION_HEADLINE_CHARS = 300;

/** Where the body that revision `number` replaced is kept, gzip text, in the raw samples' bucket. */
export function revisionBodyKey(article_id: string, number: number): string {
  return `revisions/${article_id}/${number}.txt.gz`;
}

/** Where a revision's summary is kept when the item could not take it (with its reason). */
export function revisionSummaryKey(article_id: string, number: number): string {
  return `revisions/${article_id}/${number}.json`;
}

/** The body's hash as revisions compare it: NFC, runs of white space as one space, trimmed. */
function bodyHash(body: string): string {
  const normal = body.normalize("NFC").replace(/\s+/gu, " ").trim();
  return createHash("sha256").update(normal).digest("hex").slice(0, 32);
}

/** The history fields an article carries. */
interface RevisionHistory {
  readonly revision_count: number;
  readonly revisions: ArticleRevision[];
}

export const NO_REVISIONS: RevisionHistory = { revision_count: 0, revisions: [] };

interface RevisionStep {
  readonly history: RevisionHistory;
  /** The revision this fetch made, else the article's latest (sent again: dedup's write of it is
   * idempotent, so a delivery that died after storing the article still reaches the member item). */
  readonly latest: ArticleRevision | null;
  /** The earlier body to keep in S3 when this fetch made a revision. */
  readonly earlierBody: string | null;
}

/** Compares the stored article with the fetched one; `html` is the fetched page (read only on a change). */
export function reviseArticle(
  before: Article,
  after: Pick<Article, "article_id" | "headline" | "body" | "modified_at" | "collected_at">,
  html: () => string,
): RevisionStep {
  const history: RevisionHistory = { revision_count: before.revision_count, revisions: before.revisions };
  const hash = bodyHash(after.body);
  const bodyChanged = hash !== bodyHash(before.body);
  const headlineChanged = (after.headline ?? null) !== (before.headline ?? null);
  if (!bodyChanged && !headlineChanged)
    return { history, latest: before.revisions.at(-1) ?? null, earlierBody: null };
  const number = before.revision_count + 1;
  const diff = bodyChanged ? wordDiff(before.body, after.body) : null;
  const notice = revisionNotice(before.body, after.body, html);
  const revision: ArticleRevision = {
    number,
    collected_at: after.collected_at,
    modified_at: after.modified_at,
    headline: after.headline && cutChars(after.headline, REVISION_HEADLINE_CHARS),
    previous_headline: before.headline && cutChars(before.headline, REVISION_HEADLINE_CHARS),
    headline_changed: headlineChanged,
    body_changed: bodyChanged,
    body_hash: hash,
    words_added: diff?.added ?? 0,
    words_removed: diff?.removed ?? 0,
    added_sample: diff?.addedSample ?? "",
    removed_sample: diff?.removedSample ?? "",
    notice: notice?.notice ?? null,
    notice_text: notice?.text ?? null,
    previous_body_key: revisionBodyKey(after.article_id, number),
  };
  return {
    history: { revision_count: number, revisions: [...before.revisions, revision].slice(-REVISIONS_KEPT) },
    latest: revision,
    earlierBody: before.body,
  };
}
