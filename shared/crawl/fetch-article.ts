/** Fetch one discovered URL politely, extract the article, store it and hand it to dedup. */
import { computeFingerprint } from "../dedup/fingerprint";
import type { RobotsCache } from "../discover/robots";
import { EXTRACTOR_VERSION, extractArticle, isThin } from "../extract/article";
import type { FetchSuccess, HttpClient } from "../fetch/http";
import { type FailureReason, type FetchMessage, RECORD_VERSION } from "../records";
import { articleIdFor, hostOf, resolveCanonical } from "../url/canonical-url";
import type { ArticleStore, DedupQueue, Frontier, Pacer, RawSampleStore } from "./ports";

export interface FetchDeps {
  readonly http: HttpClient;
  readonly robots: RobotsCache;
  /** Shared by every fetch worker (a table in AWS), so pacing holds across concurrent Lambdas. */
  readonly pacer: Pacer;
  readonly frontier: Frontier;
  readonly articles: ArticleStore;
  readonly rawSamples: RawSampleStore;
  readonly dedupQueue: DedupQueue;
  readonly now: () => Date;
  /** Share of successfully extracted pages whose raw HTML is kept (thin and failed pages always are). */
  readonly sampleRate: number;
  /** Registrable domains a source's pages may name as rel=canonical besides their own. */
  readonly partners?: readonly string[];
}

export type FetchOutcome =
  | { readonly kind: "article"; readonly article_id: string; readonly url: string }
  | { readonly kind: "not_modified"; readonly url: string }
  | { readonly kind: "failed"; readonly reason: FailureReason; readonly detail: string };

/** Failures worth another delivery: SQS retries them and, past maxReceiveCount, moves them to the DLQ. */
const TRANSIENT: ReadonlySet<FailureReason> = new Set(["timeout", "network_error", "http_5xx", "http_429"]);

export class TransientFetchError extends Error {
  constructor(
    readonly reason: FailureReason,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = "TransientFetchError";
  }
}

/** Deterministic sampling: the same article is always (or never) sampled, so retries agree. */
function sampled(articleId: string, rate: number): boolean {
  return Number.parseInt(articleId.slice(0, 8), 16) / 0x1_0000_0000 < rate;
}

export async function fetchArticle(msg: FetchMessage, deps: FetchDeps): Promise<FetchOutcome> {
  const fail = async (
    reason: FailureReason,
    detail: string,
    status: number | null = null,
  ): Promise<FetchOutcome> => {
    await deps.frontier.markFailed(msg.url, {
      reason,
      detail,
      http_status: status,
      now: deps.now().toISOString(),
    });
    if (TRANSIENT.has(reason)) throw new TransientFetchError(reason, detail);
    return { kind: "failed", reason, detail };
  };

  const rules = await deps.robots.rulesFor(msg.url);
  if (rules.status === "disallow_all")
    return fail("robots_unavailable", "robots.txt unreachable or 5xx: disallow all");
  if (!rules.isAllowed(msg.url)) return fail("robots_disallowed", `robots.txt disallows ${msg.url}`);
  await deps.pacer.wait(hostOf(msg.url), rules.crawlDelaySeconds);

  const previous = await deps.frontier.get(msg.url);
  const res = await deps.http.fetch(msg.url, {
    accept: "html",
    etag: previous?.etag ?? null,
    lastModified: previous?.last_modified ?? null,
  });
  if (!res.ok) return fail(res.reason, res.detail, res.status);
  if (res.notModified && previous?.article_id) {
    await deps.frontier.markFetched(msg.url, {
      article_id: previous.article_id,
      http_status: res.status,
      etag: previous.etag ?? null,
      last_modified: previous.last_modified ?? null,
      now: deps.now().toISOString(),
    });
    return { kind: "not_modified", url: msg.url };
  }
  return storeFetchedPage(msg, res, deps, fail);
}

/** What a fetched page needs after its GET; a page read from a web archive goes through it too. */
export type PageDeps = Omit<FetchDeps, "http" | "robots" | "pacer">;

/** Everything after the GET: extract, canonical URL, raw sample, Articles, dedup queue, frontier. */
export async function storeFetchedPage(
  msg: FetchMessage,
  res: FetchSuccess,
  deps: PageDeps,
  fail: (reason: FailureReason, detail: string, status?: number | null) => Promise<FetchOutcome>,
): Promise<FetchOutcome> {
  const collectedAt = deps.now();
  const extraction = extractArticle({
    html: res.text,
    url: res.finalUrl,
    headers: res.headers,
    now: collectedAt,
    languageHint: msg.language_hint ?? null,
  });
  const url = resolveCanonical(res.finalUrl, extraction.canonical_from_page, { partners: deps.partners });
  const article_id = articleIdFor(url);
  const thin = isThin(extraction);
  const raw_key =
    thin || sampled(article_id, deps.sampleRate)
      ? await deps.rawSamples.put({
          article_id,
          url,
          html: res.text,
          collected_at: collectedAt.toISOString(),
          content_type: res.contentType,
        })
      : null;
  if (thin)
    return fail(
      "thin_content",
      `extracted ${extraction.word_count} words (raw sample ${raw_key})`,
      res.status,
    );

  const collected_at = collectedAt.toISOString();
  await deps.articles.put({
    ...extraction,
    record_version: RECORD_VERSION,
    article_id,
    url,
    url_variants: [...new Set([msg.url, res.url, res.finalUrl, url])],
    source_id: msg.source_id,
    // The outlet that carried the page, not the wire service its JSON-LD may name.
    publication: msg.publication,
    headline: extraction.headline ?? msg.hint_title ?? null,
    collected_at,
    http_status: res.status,
    raw_key,
    extractor_version: EXTRACTOR_VERSION,
  });
  await deps.dedupQueue.send([
    {
      article_id,
      url,
      publication: msg.publication,
      source_id: msg.source_id,
      headline: extraction.headline,
      published_at: extraction.published_at,
      collected_at,
      fingerprint: computeFingerprint(extraction.body, extraction.headline) as unknown as Record<
        string,
        unknown
      >,
    },
  ]);
  await deps.frontier.markFetched(msg.url, {
    article_id,
    http_status: res.status,
    etag: res.headers.etag ?? null,
    last_modified: res.headers["last-modified"] ?? null,
    now: collected_at,
  });
  return { kind: "article", article_id, url };
}
