/**
 * Dedup's half of a revision: the article's member item takes the revision summary (an
 * `article_revised` event on the Clusters stream). The article stays in its story. Its fingerprint
 * item and bucket entries are its first version's (the claim is written once), so a revision never
 * moves it: story ids stay stable for consumers, a revision rarely changes what the story is (a
 * rewritten headline, an added paragraph or a correction), and a text that became another story is
 * usually published at a new URL, which dedup clusters as any other article. An article whose first
 * message was never clustered is clustered now, with the revised text.
 */

import { type DedupArticle, DedupConflictError, type DedupStore } from "../dedup/dedup-store";
import type { ArticleRevision } from "../records";

/** merged_into hops followed before giving up (the clusterer's bound). */
const MAX_HOPS = 1000;

/** Puts the revision on the article's member item; returns the story it is in. `cluster` clusters the
 * article (addArticle, idempotent) when it has no claim yet. */
export async function reviseMember(
  store: DedupStore,
  article: DedupArticle,
  revision: ArticleRevision,
  cluster: () => Promise<unknown>,
): Promise<string> {
  let claim = await store.getArticle(article.article_id);
  if (!claim) {
    await cluster();
    claim = await store.getArticle(article.article_id);
    if (!claim) throw new DedupConflictError(`article ${article.article_id} has no claim after clustering`);
  }
  // A member only moves forward along merged_into, and a move is atomic: it is on this chain.
  let id = claim.cluster_id;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if ((await store.reviseMember(id, article.article_id, revision)) !== "missing") return id;
    const summary = await store.getCluster(id);
    if (!summary?.merged_into) {
      // A first delivery that died between its claim and its join: cluster it (idempotent), then look again.
      await cluster();
      if ((await store.reviseMember(id, article.article_id, revision)) !== "missing") return id;
      throw new DedupConflictError(`article ${article.article_id} is not a member of ${id}`);
    }
    id = summary.merged_into;
  }
  throw new DedupConflictError(`merged_into chain too long from ${claim.cluster_id}`);
}
