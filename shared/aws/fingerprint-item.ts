/**
 * The Fingerprints table's two items per article (dedup-tables.ts stores them): the fingerprint item
 * (key = article id, ~1.7 KB, written once) and the story item (key = story#<article id>, ~60 bytes:
 * the article's current cluster and whether dedup finished it), so that every state write, and every
 * repointing after a merge, is one write unit instead of two.
 */
import type { ArticleStory, IndexedArticle } from "../dedup/dedup-store";
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

/** Key of an article's story item. */
export function storyKey(article_id: string): string {
  return `story#${article_id}`;
}

/** A story item as the article's dedup state; null for any other item. */
export function storyFromItem(
  item: Record<string, unknown> | undefined,
): (ArticleStory & { article_id: string }) | null {
  const key = String(item?.article_id ?? "");
  if (!item || !key.startsWith("story#") || typeof item.cluster_id !== "string") return null;
  return {
    article_id: key.slice("story#".length),
    cluster_id: item.cluster_id,
    done: item.dedup_state === "done",
  };
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
