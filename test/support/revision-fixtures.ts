import type { ArticleRevision } from "../../shared/records";

/** A revision summary: a headline change with the body kept, unless the test says otherwise. Plain data,
 * so a test can also embed it as JSON in a generated consumer script. */
export function articleRevision(over: Partial<ArticleRevision> = {}): ArticleRevision {
  const number = over.number ?? 1;
  return {
    number,
    collected_at: "2026-12-01T02:00:00.000Z",
    modified_at: null,
    headline: "Dock workers end nine-day port strike",
    previous_headline: "Port strike ends",
    headline_changed: true,
    body_changed: false,
    body_hash: "0123456789abcdef0123456789abcdef",
    words_added: 0,
    words_removed: 0,
    added_sample: "",
    removed_sample: "",
    notice: null,
    notice_text: null,
    previous_body_key: `revisions/a1/${number}.txt.gz`,
    ...over,
  };
}
