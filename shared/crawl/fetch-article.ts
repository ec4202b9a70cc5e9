/** Fetch one discovered URL politely, extract the article, store it and hand it to dedup. */
import { computeFingerprint, type Fingerprint } from "../dedup/fingerprint";
import type { Shingler } from "../dedup/shingles";
import type { RobotsCache } from "../discover/robots";
import {
  EXTRACTOR_VERSION,
  type ExtractInput,
  ExtractionError,
  extractArticle,
  isThin,
} from "../extract/article";
import { cutChars, FIELD_CAPS } from "../extract/field-caps";
import type { FetchSuccess, HttpClient } from "../fetch/http";
import { pacedBy } from "../fetch/request-pacing";
import {
  type Article,
  type Extraction,
  type FailureReason,
  type FetchMessage,
  RECORD_VERSION,
  recordInstants,
} from "../records";
import { NO_REVISIONS } from "../revisions/article-revision";
import { putWithRevisions } from "../revisions/keep-revision";
import { articleIdFor, resolveCanonical } from "../url/canonical-url";
import { type DedupHandoff, sendingAtOnce } from "./dedup-handoff";
import type {
  ArticleStore,
  DedupQueue,
  Frontier,
  Pacer,
  RawSampleStore,
  RecheckMark,
  RevisionStore,
} from "./ports";
import { sampled } from "./raw-sample";
import { nextRecheck } from "./recheck-schedule";

export interface FetchDeps {
  readonly http: HttpClient;
  readonly robots: RobotsCache;
  /** Shared by every fetch worker (a table in AWS), so pacing holds across concurrent Lambdas. */
  readonly pacer: Pacer;
  readonly frontier: Frontier;
  readonly articles: ArticleStore;
  readonly rawSamples: RawSampleStore;
  /** Where revisions' earlier bodies go; without it a re-fetch overwrites the article as before v8. */
  readonly revisions?: RevisionStore;
  readonly dedupQueue: DedupQueue;
  /** How the article's message and the page's outcome go (dedup-handoff.ts); default: sent at once. A
   * fetch invocation holds its batch's messages and sends them together. */
  readonly dedupHandoff?: DedupHandoff;
  readonly now: () => Date;
  /** The re-check schedule for URLs listed without a lastmod (STORYTRAIL_RECHECK_HOURS,
   * recheck-schedule.ts); absent (an archive import): none. */
  readonly recheckHours?: readonly number[];
  /** Share of successfully extracted pages whose raw HTML is kept (thin and failed pages always are). */
  readonly sampleRate: number;
  /** The deployment's canonical partners (STORYTRAIL_CANONICAL_PARTNERS); a message adds its source's. */
  readonly partners?: readonly string[];
  /** The extractor (default extractArticle); a test puts a failing one here to prove how a crash is recorded. */
  readonly extract?: (input: ExtractInput) => Extraction;
  /** The fingerprint scanner's working state, kept by a worker across its pages; by default one per
   * page (~12 µs more a page, against ~3 ms of extraction). */
  readonly shingler?: Shingler;
  /** The article's dedup fingerprint (default computeFingerprint of its body and headline); an
   * archive import computes it ahead, in the worker that extracted the page. */
  readonly fingerprint?: (extraction: Extraction) => Fingerprint;
  /** The page's raw HTML already compressed (gzipRawHtml) if it is kept for this article, else null
   * (compressed here from the page's text): an archive import's worker compresses it. */
  readonly rawSampleGzip?: (articleId: string) => Uint8Array | null;
  /** The body's stored bytes (encodeBody) if they were compressed already, else null; an archive
   * import's worker compresses the body it extracted. */
  readonly bodyGzip?: (body: string) => Uint8Array | null;
}

export type FetchOutcome =
  | {
      readonly kind: "article";
      readonly article_id: string;
      readonly url: string;
      /** Whether the stored article has a headline (the per-publisher headline share). */
      readonly has_headline: boolean;
    }
  | { readonly kind: "not_modified"; readonly url: string }
  | { readonly kind: "failed"; readonly reason: FailureReason; readonly detail: string };

/** Failures worth another delivery: SQS retries them until fetch-attempt.ts gives up (MAX_FETCH_ATTEMPTS). */
const TRANSIENT: ReadonlySet<FailureReason> = new Set(["timeout", "network_error", "http_5xx", "http_429"]);

export class TransientFetchError extends Error {
  constructor(
    readonly reason: FailureReason,
    readonly detail: string,
    /** The URL's attempts since its claim, this failed one included (the Frontier counts them). */
    readonly attempts: number,
  ) {
    super(`${reason}: ${detail}`);
    this.name = "TransientFetchError";
  }
}

export async function fetchArticle(msg: FetchMessage, deps: FetchDeps): Promise<FetchOutcome> {
  const fail = async (
    reason: FailureReason,
    detail: string,
    status: number | null = null,
  ): Promise<FetchOutcome> => {
    const attempts = await deps.frontier.markFailed(msg.url, {
      reason,
      detail,
      http_status: status,
      now: deps.now().toISOString(),
    });
    if (TRANSIENT.has(reason)) throw new TransientFetchError(reason, detail, attempts);
    return { kind: "failed", reason, detail };
  };

  const rules = await deps.robots.rulesFor(msg.url);
  if (rules.status === "disallow_all")
    return fail(
      rules.reason ?? "robots_unavailable",
      `robots.txt not read: ${rules.detail ?? "disallow all"}`,
    );
  if (!rules.isAllowed(msg.url)) return fail("robots_disallowed", `robots.txt disallows ${msg.url}`);

  const previous = await deps.frontier.get(msg.url);
  // Every request of this fetch (each redirect hop too) takes its turn with the host's other requests.
  const res = await deps.http.fetch(msg.url, {
    accept: "html",
    etag: previous?.etag ?? null,
    lastModified: previous?.last_modified ?? null,
    pace: pacedBy(deps.pacer, msg.url, rules.crawlDelaySeconds, {
      ...(msg.min_delay_ms === undefined ? {} : { minDelayMs: msg.min_delay_ms }),
    }),
  });
  if (!res.ok) return fail(res.reason, res.detail, res.status);
  const recheck = deps.recheckHours && nextRecheck(msg, previous, deps.recheckHours, deps.now());
  if (res.notModified && previous?.article_id) {
    await deps.frontier.markFetched(msg.url, {
      article_id: previous.article_id,
      http_status: res.status,
      etag: previous.etag ?? null,
      last_modified: previous.last_modified ?? null,
      now: deps.now().toISOString(),
      ...(recheck ? { recheck } : {}),
    });
    return { kind: "not_modified", url: msg.url };
  }
  return storeFetchedPage(msg, res, deps, fail, previous?.article_id != null, recheck);
}

/** What a fetched page needs after its GET; a page read from a web archive goes through it too. */
export type PageDeps = Omit<FetchDeps, "http" | "robots" | "pacer">;

/** Everything after the GET: extract, canonical URL, raw sample, Articles, dedup queue, frontier. */
export async function storeFetchedPage(
  msg: FetchMessage,
  res: FetchSuccess,
  deps: PageDeps,
  fail: (reason: FailureReason, detail: string, status?: number | null) => Promise<FetchOutcome>,
  /** The URL was fetched to an article before: the stored one is read and a change kept as a revision. */
  known = false,
  /** The URL's next re-check, for the Frontier item (a live fetch's). */
  recheck?: RecheckMark,
): Promise<FetchOutcome> {
  const collectedAt = deps.now();
  // Registrable domains the page may name as rel=canonical besides its own: the deployment's and its source's.
  const partners = [...(deps.partners ?? []), ...(msg.partners ?? [])];
  const keepSample = (article_id: string, url: string): Promise<string> => {
    const gzip = deps.rawSampleGzip?.(article_id);
    return deps.rawSamples.put({
      article_id,
      url,
      html: gzip ? { gzip } : res.text,
      collected_at: collectedAt.toISOString(),
      content_type: res.contentType,
    });
  };
  let extraction: Extraction;
  try {
    extraction = (deps.extract ?? extractArticle)({
      // Read only by an extractor that runs here: an archive import extracts ahead, in a worker
      // given the page's bytes, and never decodes the text in this thread unless a sample is kept.
      get html() {
        return res.text;
      },
      url: res.finalUrl,
      headers: res.headers,
      now: collectedAt,
      languageHint: msg.language_hint ?? null,
      // The feed's or news sitemap's date settles an ambiguous numeric one; the source's zone names the day.
      publishedHint: msg.hint_published_at ?? null,
      timeZone: msg.timezone ?? null,
    });
  } catch (err) {
    // An extractor bug, recorded as one (with the page kept to replay once it is fixed), never as thin.
    const url = resolveCanonical(res.finalUrl, null, { partners });
    const raw_key = await keepSample(articleIdFor(url), url);
    const error = err instanceof ExtractionError ? err : new ExtractionError(err);
    return fail("extraction_error", `${error.message} (raw sample ${raw_key})`, res.status);
  }
  const url = resolveCanonical(res.finalUrl, extraction.canonical_from_page, { partners });
  const article_id = articleIdFor(url);
  const thin = isThin(extraction);
  const raw_key = thin || sampled(article_id, deps.sampleRate) ? await keepSample(article_id, url) : null;
  if (thin)
    return fail(
      "thin_content",
      `extracted ${extraction.word_count} words (raw sample ${raw_key})`,
      res.status,
    );

  const collected_at = collectedAt.toISOString();
  const times = recordInstants(extraction);
  const article: Article = {
    ...extraction,
    ...times,
    truncated: extraction.truncated ?? null,
    record_version: RECORD_VERSION,
    article_id,
    url,
    // A URL longer than any real one is not kept as a variant (the item's size budget, field-caps.ts).
    url_variants: [...new Set([msg.url, res.url, res.finalUrl, url])].filter(
      (u) => u === url || u.length <= FIELD_CAPS.urlChars,
    ),
    source_id: msg.source_id,
    // The outlet that carried the page, not the wire service its JSON-LD may name.
    publication: msg.publication,
    headline:
      extraction.headline ?? (msg.hint_title ? cutChars(msg.hint_title, FIELD_CAPS.headlineChars) : null),
    collected_at,
    http_status: res.status,
    raw_key,
    extractor_version: EXTRACTOR_VERSION,
    ...NO_REVISIONS,
  };
  const { stored, latest } = await putWithRevisions(article, {
    articles: deps.articles,
    revisions: deps.revisions,
    known,
    html: () => res.text,
    bodyGzip: deps.bodyGzip?.(article.body) ?? undefined,
  });
  // The caps keep an article well inside the item limit; this is the net under them (url_variants
  // accumulate across puts, and any field added later).
  if (stored === "too_large")
    return fail(
      "too_large",
      `article ${article_id} exceeds the Articles table's item size limit`,
      res.status,
    );
  const message = {
    article_id,
    url,
    publication: msg.publication,
    source_id: msg.source_id,
    headline: extraction.headline,
    published_at: times.published_at,
    collected_at,
    fingerprint: (deps.fingerprint
      ? deps.fingerprint(extraction)
      : computeFingerprint(extraction.body, extraction.headline, deps.shingler)) as unknown as Record<
      string,
      unknown
    >,
    ...(latest ? { revision: latest } : {}),
  };
  await (deps.dedupHandoff ?? sendingAtOnce(deps.dedupQueue)).hand(message, async () => {
    await deps.frontier.markFetched(msg.url, {
      article_id,
      http_status: res.status,
      etag: res.headers.etag ?? null,
      last_modified: res.headers["last-modified"] ?? null,
      now: collected_at,
      ...(recheck ? { recheck } : {}),
    });
  });
  return { kind: "article", article_id, url, has_headline: extraction.headline !== null };
}
