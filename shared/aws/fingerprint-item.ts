/**
 * The Fingerprints table's item per article (dedup-tables.ts stores it): the fingerprint (key = article
 * id, ~1.7 KB), written once by the article's claim, with the cluster the claim chose
 * (`first_cluster_id`). Deployments before record version 7 also wrote a story item per article (key
 * story#<article id>); it is no longer written, and readers skip it.
 */
import type { IndexedArticle } from "../dedup/dedup-store";
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

function fingerprintToItem(fp: Fingerprint): Record<string, unknown> {
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

/**
 * Each article's story, from the Fingerprints and Clusters tables' items (a scan, or an export to S3
 * unmarshalled): the cluster its claim chose, followed through the summaries' `merged_into` to the live
 * one. Articles without a fingerprint item (not deduplicated yet) are absent.
 */
export function articleStories(
  fingerprintItems: Iterable<Record<string, unknown>>,
  clusterItems: Iterable<Record<string, unknown>>,
): Map<string, string> {
  const mergedInto = new Map<string, string>();
  for (const c of clusterItems)
    if (c.record_type === "summary" && typeof c.merged_into === "string")
      mergedInto.set(String(c.cluster_id), c.merged_into);
  const stories = new Map<string, string>();
  for (const f of fingerprintItems) {
    const a = indexedFromItem(f);
    if (!a) continue;
    let id = a.cluster_id;
    // A chain never loops (a merge keeps the smaller id); the bound guards a corrupt table.
    for (let hops = 0; mergedInto.has(id) && hops < 1000; hops++) id = mergedInto.get(id) as string;
    stories.set(a.article_id, id);
  }
  return stories;
}

/** A fingerprint item as the clusterer's article; null for any other item. */
export function indexedFromItem(item: Record<string, unknown> | undefined): IndexedArticle | null {
  if (!item?.fingerprint) return null;
  return {
    article_id: String(item.article_id),
    url: String(item.url),
    publication: String(item.publication),
    source_id: String(item.source_id),
    headline: (item.headline as string | null) ?? null,
    published_at: (item.published_at as string | null) ?? null,
    collected_at: String(item.collected_at),
    fingerprint: fingerprintFromItem(item.fingerprint as Record<string, unknown>),
    // Items written before the story item existed name their cluster cluster_id.
    cluster_id: String(item.first_cluster_id ?? item.cluster_id),
    similarity: Number(item.similarity ?? 1),
    ...(typeof item.expires_at === "number" ? { expires_at: item.expires_at } : {}),
  };
}

/** The fingerprint item of an article. */
export function itemFromIndexed(a: IndexedArticle): Record<string, unknown> {
  return {
    article_id: a.article_id,
    url: a.url,
    publication: a.publication,
    source_id: a.source_id,
    headline: a.headline,
    published_at: a.published_at,
    collected_at: a.collected_at,
    fingerprint: fingerprintToItem(a.fingerprint),
    first_cluster_id: a.cluster_id,
    similarity: a.similarity,
  };
}
