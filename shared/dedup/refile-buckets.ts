/**
 * Re-files recent articles' LSH bucket entries under the current layout. A band key carries its layout
 * (docs/dedup.md), so after a layout change the entries written before it are not found; re-filing the
 * articles collected within the retention window closes that gap at one Buckets write per band per
 * article (8 at the 6×2 + 2×2 layout), instead of letting stories split until the old entries expire.
 * Idempotent: an entry is keyed by band hash and article id, so a second run rewrites the same items.
 */
import { candidateDigest } from "./candidate-digest";
import { articleBandKeys } from "./clusterer";
import type { DedupStore, IndexedArticle } from "./dedup-store";
import { viewFingerprint } from "./fingerprint";
import { type MatchParams, matchParams } from "./params";

export interface RefileResult {
  /** Fingerprints read. */
  readonly scanned: number;
  /** Articles filed again under the current layout. */
  readonly refiled: number;
  /** Older than `since` (their entries would have expired anyway). */
  readonly older: number;
  /** Too short to index (no band keys under any layout). */
  readonly unindexable: number;
}

export async function refileBuckets(
  articles: AsyncIterable<IndexedArticle>,
  store: Pick<DedupStore, "addToBuckets">,
  opts: { readonly since: Date; readonly params?: MatchParams; readonly onArticle?: () => void },
): Promise<RefileResult> {
  const params = opts.params ?? matchParams;
  let scanned = 0;
  let refiled = 0;
  let older = 0;
  let unindexable = 0;
  for await (const a of articles) {
    scanned++;
    opts.onArticle?.();
    // Collected time, not published: the retention clock of a bucket entry starts when dedup filed it.
    if (Date.parse(a.collected_at) < opts.since.getTime()) {
      older++;
      continue;
    }
    const view = viewFingerprint(a.fingerprint);
    const keys = articleBandKeys(view, params);
    if (keys.length === 0) {
      unindexable++;
      continue;
    }
    await store.addToBuckets(keys, a.article_id, candidateDigest(view));
    refiled++;
  }
  return { scanned, refiled, older, unindexable };
}
