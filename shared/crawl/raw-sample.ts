/**
 * Which pages keep their raw HTML, and how it is stored: thin and failed pages always, others a
 * deterministic share; gzip at zlib's default level (6), as S3 and the local store have always written
 * it. One file the fetch path and an archive import's extraction workers share (a worker compresses a
 * kept page's HTML itself, so that the import's main thread only writes the bytes).
 */
import { gzipSync } from "node:zlib";

/** Deterministic sampling: the same article is always (or never) sampled, so retries agree. */
export function sampled(articleId: string, rate: number): boolean {
  return Number.parseInt(articleId.slice(0, 8), 16) / 0x1_0000_0000 < rate;
}

/** A raw sample's stored bytes: the HTML's UTF-8, gzip-compressed. */
export function gzipRawHtml(html: string): Uint8Array {
  return gzipSync(html, { level: 6 });
}
