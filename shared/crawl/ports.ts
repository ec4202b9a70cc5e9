/**
 * What the crawl needs from storage and queues, as the domain sees it. shared/aws/ implements these
 * against DynamoDB, SQS and S3; tests and the CLI may implement them in memory.
 */
import type { Article, ArticleRevision, DedupMessage, FailureReason, FetchMessage } from "../records";
import type { DiscoverMessage } from "./discover-message";

export type FrontierStatus = "queued" | "fetched" | "failed";

/** What fetch writes on the Frontier item for the URL's next re-check (recheck-schedule.ts). */
export interface RecheckMark {
  /** The article's first fetch, from which the schedule counts. */
  readonly first_fetched_at: string;
  /** When it is next due; null when the schedule is over (or the source gives a lastmod). */
  readonly recheck_at: string | null;
}

export interface FrontierEntry {
  readonly url_id: string;
  readonly url: string;
  readonly source_id: string;
  readonly status: FrontierStatus;
  readonly run_id: string;
  readonly lastmod: string | null;
  readonly first_seen_at: string;
  readonly reason?: FailureReason | null;
  readonly detail?: string | null;
  /** Outcomes recorded (fetched, failed, killed) since the URL was last claimed: its fetch attempts. */
  readonly attempts?: number;
  /** The delivery (SQS receive count) of this URL's message that was skipped unread (put back until its
   * host's slot), when one was. */
  readonly skipped_delivery?: number | null;
  /** The first of the skipped deliveries that run up to `skipped_delivery` (a page put back again and
   * again); absent on items written before it was kept: `skipped_delivery` alone. */
  readonly skipped_from?: number | null;
  /** Why that delivery was skipped (an earlier page of its host failed in the same batch). */
  readonly skip_detail?: string | null;
  /** The delivery whose outcome (fetched or failed) was recorded last, when the fetch said. */
  readonly last_delivery?: number | null;
  /** The SQS message id of the deliveries above. Delivery numbers compare only within one message: a
   * message sent again (a dead-letter redrive, a local run restored after a restart) counts from 1. */
  readonly delivery_message?: string | null;
  readonly article_id?: string | null;
  readonly http_status?: number | null;
  readonly etag?: string | null;
  readonly last_modified?: string | null;
  /** When DynamoDB's TTL deletes the item (epoch seconds): the Frontier retention after its last write or
   * sighting; absent on items written before the Frontier expired. */
  readonly expires_at?: number;
  /** The article's first fetch and its next re-check for a source without lastmods (recheck-schedule.ts). */
  readonly first_fetched_at?: string | null;
  readonly recheck_at?: string | null;
}

export type ClaimResult = "new" | "updated" | "seen";

/** A later delivery of the URL's message has recorded its outcome: this one was abandoned (its
 * invocation timed out and still ran on) and must change nothing. */
export class StaleDeliveryError extends Error {
  constructor(url: string, delivery: number) {
    super(`delivery ${delivery} of ${url} is stale: a later delivery has recorded its outcome`);
    this.name = "StaleDeliveryError";
  }
}

export interface Frontier {
  /**
   * Records a discovered URL. "new" the first time, "updated" when its lastmod is newer than the
   * stored one (re-fetch for update tracking) or, listed without a lastmod, when its re-check is due
   * (`recheck_at` passed), "seen" otherwise. Atomic: two runs never both win.
   */
  claim(entry: {
    url: string;
    source_id: string;
    run_id: string;
    lastmod: string | null;
    now: string;
  }): Promise<ClaimResult>;
  get(url: string): Promise<FrontierEntry | null>;
  /**
   * Notes that delivery `delivery` of a URL's message was skipped unread (an earlier page of its host
   * failed in the same batch); not an attempt. A later delivery then knows the last one did not crash.
   * The URL's outcome (status, reason, detail) is left as it is.
   */
  markSkipped(
    url: string,
    s: { delivery: number; message?: string; detail: string; now: string },
  ): Promise<void>;
  markFetched(
    url: string,
    result: {
      article_id: string;
      http_status: number;
      etag: string | null;
      last_modified: string | null;
      now: string;
      /** The SQS delivery that recorded it (fetch-attempt.ts tells a crashed delivery by its absence). */
      delivery?: number;
      /** Its message id (FrontierEntry.delivery_message). */
      message?: string;
      /** The next re-check (a live fetch's; absent: the item's is left as it is). */
      recheck?: RecheckMark;
    },
  ): Promise<void>;
  /** Records a failed attempt; returns the URL's attempts since its claim, this one included. */
  markFailed(
    url: string,
    failure: {
      reason: FailureReason;
      detail: string;
      http_status: number | null;
      now: string;
      delivery?: number;
      message?: string;
    },
  ): Promise<number>;
}

export interface SourceState {
  lastSuccess(sourceId: string): Promise<Date | null>;
  recordSuccess(sourceId: string, at: Date, counts: Record<string, number>): Promise<void>;
}

export interface ArticleStore {
  /**
   * Writes the article; url_variants accumulate. "too_large" when the store refused the item for its
   * size (nothing was written). `bodyGzip`: encodeBody(article.body) when it was compressed already
   * (an archive import's worker compresses the body it extracted).
   */
  put(article: Article, bodyGzip?: Uint8Array): Promise<"stored" | "too_large">;
  get(articleId: string): Promise<Article | null>;
}

export interface RawSampleStore {
  /**
   * Stores gzip HTML under a deterministic key (re-writing it is harmless). Returns the key. `html` is
   * the page's text, or its bytes already compressed by gzipRawHtml (raw-sample.ts: an archive
   * import's worker compresses them).
   */
  put(sample: {
    article_id: string;
    url: string;
    html: string | { readonly gzip: Uint8Array };
    collected_at: string;
    content_type: string;
  }): Promise<string>;
}

/** Where an article's revisions go beyond its item (the raw samples' bucket, under `revisions/`). */
export interface RevisionStore {
  /** Keeps the body revision `number` replaced, gzip text at revisionBodyKey (re-writing is harmless). */
  putEarlierBody(r: {
    article_id: string;
    number: number;
    body: string;
    collected_at: string;
  }): Promise<string>;
  /** Keeps a revision's summary the Articles item could not take, with why, at revisionSummaryKey. */
  putSummary(r: { article_id: string; revision: ArticleRevision; reason: string }): Promise<string>;
}

export interface RawSample {
  readonly key: string;
  readonly url: string;
  readonly collected_at: string;
  readonly html: string;
}

export interface FetchQueue {
  send(messages: readonly FetchMessage[]): Promise<void>;
}

/** A host's schedule of request slots (the Hosts table): discovery reserves its pages' slots. */
export interface HostSchedule {
  /** The next `pages` slots of `host` (epoch ms, in order), at the host's interval. */
  reserve(
    host: string,
    pages: number,
    pace: { crawlDelaySeconds?: number | null; minDelayMs?: number },
  ): Promise<number[]>;
}

export interface DiscoverQueue {
  send(messages: readonly DiscoverMessage[]): Promise<void>;
}

export interface DedupQueue {
  send(messages: readonly DedupMessage[]): Promise<void>;
}

/** Spaces requests to one host (declared with the request pacing that uses it). */
export type { Pacer } from "../fetch/request-pacing";
