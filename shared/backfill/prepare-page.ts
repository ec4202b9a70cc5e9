/**
 * Everything done for an archived page that needs no shared state: its bytes decoded, the article
 * extracted, its dedup fingerprint computed. A worker of the extraction pool runs this on the page's
 * bytes, so that the import's main thread only reads the file, stores and clusters; the result is what
 * storeFetchedPage would compute itself (test/shared/backfill/extraction-pool.test.ts).
 */
import { computeFingerprint, type Fingerprint } from "../dedup/fingerprint";
import type { Shingler } from "../dedup/shingles";
import { type ExtractInput, extractArticle } from "../extract/article";
import { decodeBody } from "../fetch/charset";
import type { Extraction } from "../records";

export interface PageJob {
  /** The page's body, Content-Encoding and chunking undone. */
  readonly bytes: Uint8Array;
  readonly contentType: string;
  /** What the extractor is given besides the decoded HTML. */
  readonly input: Omit<ExtractInput, "html">;
}

export interface PreparedPage {
  readonly extraction: Extraction;
  readonly fingerprint: Fingerprint;
}

export function preparePage(job: PageJob, shingler?: Shingler): PreparedPage {
  const { text } = decodeBody(job.bytes, job.contentType);
  const extraction = extractArticle({ ...job.input, html: text });
  return { extraction, fingerprint: computeFingerprint(extraction.body, extraction.headline, shingler) };
}
