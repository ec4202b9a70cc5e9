/**
 * Re-files recent articles' LSH bucket entries under the current layout. A band key carries its layout
 * (docs/dedup.md), so after a layout change the entries written before it are not found; re-filing the
 * articles collected within the retention window closes that gap at one Buckets write per band per
 * article (8 at the 6×2 + 2×2 layout), instead of letting stories split until the old entries expire.
 * Idempotent: an entry is keyed by band hash and article id, so a second run rewrites the same items.
 * An entry expires with its article's fingerprint (its `expires_at`, counted from the claim), not a
 * retention from the re-filing: an entry that outlived its fingerprint would only cost look-ups.
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
  /** Older than `since`, or their fingerprint expired (their entries would have expired anyway). */
  readonly older: number;
  /** Too short to index (no band keys under any layout). */
  readonly unindexable: number;
}

export async function refileBuckets(
  articles: AsyncIterable<IndexedArticle>,
  store: Pick<DedupStore, "addToBuckets">,
  opts: {
    readonly since: Date;
    /** The clock a fingerprint's expiry is read against. */
    readonly now: Date;
    readonly params?: MatchParams;
    readonly onArticle?: () => void;
  },
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
    const expired = a.expires_at !== undefined && a.expires_at * 1000 <= opts.now.getTime();
    if (expired || Date.parse(a.collected_at) < opts.since.getTime()) {
      older++;
      continue;
    }
    const view = viewFingerprint(a.fingerprint);
    const keys = articleBandKeys(view, params);
    if (keys.length === 0) {
      unindexable++;
      continue;
    }
    // A fingerprint written before the table's TTL has none, and never expires: the store's retention.
    await store.addToBuckets(keys, a.article_id, candidateDigest(view), a.expires_at);
    refiled++;
  }
  return { scanned, refiled, older, unindexable };
}
