/** The Fingerprints table's form of a MinHash fingerprint and its article (dedup-tables.ts stores them). */
import type { IndexedArticle } from "../dedup/clusterer";
import type { Fingerprint } from "../dedup/fingerprint";

/** Fingerprint arrays (base64 in the JSON form) are stored as binary: a quarter fewer bytes, and the
 * item stays under 2 KB, i.e. 2 write units per write instead of 3. */
const BINARY_FIELDS = [
  "sig",
  "lede",
  "ents",
  "top_ents",
  "num_ctx",
  "num_val",
  "ent_ctx",
  "ent_val",
] as const;

export function fingerprintToItem(fp: Fingerprint): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fp };
  for (const f of BINARY_FIELDS) out[f] = Buffer.from(fp[f], "base64");
  return out;
}

function fingerprintFromItem(item: Record<string, unknown>): Fingerprint {
  const out: Record<string, unknown> = { ...item };
  for (const f of BINARY_FIELDS) {
    const v = item[f];
    if (v instanceof Uint8Array)
      out[f] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
  }
  return out as Fingerprint;
}

/** A Fingerprints item as the clusterer's article; null for an item without a finished fingerprint. */
export function indexedFromItem(item: Record<string, unknown> | undefined): IndexedArticle | null {
  if (!item?.fingerprint || !item.dedup_state) return null;
  return {
    article_id: String(item.article_id),
    url: String(item.url),
    publication: String(item.publication),
    source_id: String(item.source_id),
    headline: (item.headline as string | null) ?? null,
    published_at: (item.published_at as string | null) ?? null,
    collected_at: String(item.collected_at),
    fingerprint: fingerprintFromItem(item.fingerprint as Record<string, unknown>),
    cluster_id: String(item.cluster_id),
    similarity: Number(item.similarity ?? 1),
    state: item.dedup_state as IndexedArticle["state"],
  };
}
