/**
 * Dedup's half of a revision: the article's member item takes the revision summary (an
 * `article_revised` event on the Clusters stream). The article stays in its story. Its fingerprint
 * item and bucket entries are its first version's (the claim is written once), so a revision never
 * moves it: story ids stay stable for consumers, a revision rarely changes what the story is (a
 * rewritten headline, an added paragraph or a correction), and a text that became another story is
 * usually published at a new URL, which dedup clusters as any other article. An article whose first
 * message was never clustered is clustered now, with the revised text.
 */

import {
  type DedupArticle,
  DedupConflictError,
  type DedupStore,
  type IndexedArticle,
} from "../dedup/dedup-store";
import type { ArticleRevision } from "../records";

/** merged_into hops followed before giving up (the clusterer's bound). */
const MAX_HOPS = 1000;

/** Puts the revision on the article's member item along the chain from `cluster_id`; the cluster it is
 * in, or null when no member is on the chain, with the chain's last id. */
async function reviseOnChain(
  store: DedupStore,
  cluster_id: string,
  article_id: string,
  revision: ArticleRevision,
): Promise<{ readonly id: string; readonly revised: boolean }> {
  // A member only moves forward along merged_into, and a move is atomic: it is on this chain.
  let id = cluster_id;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if ((await store.reviseMember(id, article_id, revision)) !== "missing") return { id, revised: true };
    const summary = await store.getCluster(id);
    if (!summary?.merged_into) return { id, revised: false };
    id = summary.merged_into;
  }
  throw new DedupConflictError(`merged_into chain too long from ${cluster_id}`);
}

/** The article's claim, clustering it first (`cluster`) when it has none. */
async function claimOf(
  store: DedupStore,
  article: DedupArticle,
  cluster: () => Promise<unknown>,
): Promise<IndexedArticle> {
  const claim = await store.getArticle(article.article_id);
  if (claim) return claim;
  await cluster();
  const after = await store.getArticle(article.article_id);
  if (!after) throw new DedupConflictError(`article ${article.article_id} has no claim after clustering`);
  return after;
}

/** Puts the revision on the article's member item; returns the story it is in. `cluster` clusters the
 * article (addArticle, idempotent) when it has no claim yet, or no member on its claim's chain. */
export async function reviseMember(
  store: DedupStore,
  article: DedupArticle,
  revision: ArticleRevision,
  cluster: () => Promise<unknown>,
): Promise<string> {
  const first = await reviseOnChain(
    store,
    (await claimOf(store, article, cluster)).cluster_id,
    article.article_id,
    revision,
  );
  if (first.revised) return first.id;
  // No member: a first delivery that died between its claim and its join, or a member (or its whole
  // story) that expired. Clustering joins it only in the first case (addArticle knows a counted article)
  // and claims it again in the last; then look again from the claim.
  await cluster();
  const again = await reviseOnChain(
    store,
    (await claimOf(store, article, cluster)).cluster_id,
    article.article_id,
    revision,
  );
  // Still none: its member expired with the day's archive, which holds it; the Articles item keeps the
  // revision, and the story's summary counts the article once.
  return again.id;
}
