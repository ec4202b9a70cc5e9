/**
 * Everything done for an archived page that needs no shared state: its bytes decoded, the article
 * extracted, its dedup fingerprint computed, its body compressed as the Articles item stores it, and
 * its raw HTML compressed when the page keeps a raw sample. A worker of the extraction pool runs this
 * on the page's bytes, so that the import's main thread only reads the file, stores and clusters; the
 * result is what storeFetchedPage would compute itself (test/shared/backfill/extraction-pool.test.ts).
 */
import { encodeBody } from "../consumer/article-item";
import { gzipRawHtml, sampled } from "../crawl/raw-sample";
import { computeFingerprint, type Fingerprint } from "../dedup/fingerprint";
import type { Shingler } from "../dedup/shingles";
import { type ExtractInput, extractArticle, isThin } from "../extract/article";
import { decodeBody } from "../fetch/charset";
import type { Extraction } from "../records";
import { articleIdFor, resolveCanonical } from "../url/canonical-url";

export interface PageJob {
  /** The page's body, Content-Encoding and chunking undone. */
  readonly bytes: Uint8Array;
  readonly contentType: string;
  /** What the extractor is given besides the decoded HTML. */
  readonly input: Omit<ExtractInput, "html">;
  /** What decides whether the page keeps its raw HTML (storeFetchedPage's rule): the share sampled
   * and the registrable domains its rel=canonical may name besides its own. */
  readonly sample: { readonly rate: number; readonly partners: readonly string[] };
}

export interface PreparedPage {
  readonly extraction: Extraction;
  readonly fingerprint: Fingerprint;
  /** encodeBody(extraction.body): the Articles item's bytes. */
  readonly bodyGzip: Uint8Array;
  /** The raw HTML as stored (gzipRawHtml), for the article it is kept for; null if it is not kept. */
  readonly rawSample: { readonly article_id: string; readonly gzip: Uint8Array } | null;
}

export function preparePage(job: PageJob, shingler?: Shingler): PreparedPage {
  const { text } = decodeBody(job.bytes, job.contentType);
  const extraction = extractArticle({ ...job.input, html: text });
  const url = resolveCanonical(job.input.url, extraction.canonical_from_page, {
    partners: job.sample.partners,
  });
  const article_id = articleIdFor(url);
  const kept = isThin(extraction) || sampled(article_id, job.sample.rate);
  return {
    extraction,
    fingerprint: computeFingerprint(extraction.body, extraction.headline, shingler),
    bodyGzip: encodeBody(extraction.body),
    rawSample: kept ? { article_id, gzip: gzipRawHtml(text) } : null,
  };
}
