/**
 * Re-running the current extractor over stored raw samples: what would change in the stored
 * articles. Pure comparison; the caller supplies the samples and the stored records.
 */
import { EXTRACTOR_VERSION, type ExtractInput, extractArticle } from "../extract/article";
import { type Article, type Extraction, recordInstants } from "../records";
import type { RawSample } from "./ports";

/** The extracted fields worth reporting; body changes are summarised by length, not printed. */
const COMPARED = [
  "headline",
  "headline_declared",
  "kicker",
  "authors",
  "credit",
  "body",
  "section",
  "published_at",
  "published_day",
  "published_at_source",
  "published_at_structured",
  "date_flag",
  "date_order_flag",
  "modified_at",
  "language",
  "word_count",
  "is_accessible_for_free",
] as const satisfies readonly (keyof Extraction)[];

export type ComparedField = (typeof COMPARED)[number];

export interface FieldChange {
  readonly field: ComparedField;
  readonly before: unknown;
  readonly after: unknown;
}

export interface SampleReport {
  readonly key: string;
  readonly article_id: string;
  readonly url: string;
  readonly before_version: string | null;
  readonly after_version: string;
  /** null when no stored article was found for the sample (e.g. a thin page, recorded as a failure). */
  readonly changes: FieldChange[] | null;
  /** null when the extractor failed on the sample: `error` says how. */
  readonly extraction: Extraction | null;
  readonly error?: string;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function compareExtraction(stored: Partial<Article>, extracted: Extraction): FieldChange[] {
  const changes: FieldChange[] = [];
  // Compared as fetch would store it.
  const fresh = { ...extracted, ...recordInstants(extracted) };
  for (const field of COMPARED) {
    const before = stored[field];
    const after = fresh[field];
    if (same(before, after)) continue;
    changes.push(
      field === "body"
        ? {
            field,
            before: `${String(before ?? "").length} chars`,
            after: `${String(after ?? "").length} chars`,
          }
        : { field, before, after },
    );
  }
  return changes;
}

/** The article id a raw-sample key names (`raw/<article_id>.html.gz`). */
function articleIdOfKey(key: string): string {
  return key.replace(/^.*\//, "").replace(/\.html\.gz$/, "");
}

/** `extract`: the extractor to replay (default the current one; a test passes a failing one). */
export async function* reextract(
  samples: AsyncIterable<RawSample>,
  stored: (article_id: string) => Promise<Partial<Article> | null>,
  extract: (input: ExtractInput) => Extraction = extractArticle,
): AsyncGenerator<SampleReport> {
  for await (const s of samples) {
    const article_id = articleIdOfKey(s.key);
    const base = { key: s.key, article_id, url: s.url, after_version: EXTRACTOR_VERSION };
    let extraction: Extraction;
    try {
      extraction = extract({ html: s.html, url: s.url, now: new Date(s.collected_at || Date.now()) });
    } catch (err) {
      // One sample the extractor fails on is reported, and the replay goes on.
      yield { ...base, before_version: null, changes: null, extraction: null, error: (err as Error).message };
      continue;
    }
    const before = await stored(article_id);
    yield {
      ...base,
      before_version: before?.extractor_version ?? null,
      changes: before ? compareExtraction(before, extraction) : null,
      extraction,
    };
  }
}
