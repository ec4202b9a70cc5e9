/**
 * fetch λ (standard SQS): fetch → extract → raw sample (a share, every thin page) → Articles → dedup
 * queue. A page never waits in the function for its host: a batch's hosts are admitted by the Hosts table
 * (host-pace-table.ts), each due host's page is fetched (3 hosts at once), and every page whose host is not
 * due goes back to the queue until its reserved slot, reported as a batch item failure.
 *
 * Logs: one INFO line per invocation ("fetch batch": its pages by outcome). A page's own "fetched" line is
 * DEBUG (POWERTOOLS_LOG_LEVEL=DEBUG for an investigation): its outcome is on its Frontier item, and a line
 * a page at INFO paid Logs ingestion for a copy of it (issue 26). Failures keep their WARN/ERROR lines; a
 * recorded failure (a 404, no article…), whose own line is the DEBUG one, is named with its reason on the
 * batch's line.
 */
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { ArticlesTable } from "../shared/aws/articles-table";
import { DeadLetterSender } from "../shared/aws/dead-letter-sender";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { FetchQueueReturn } from "../shared/aws/fetch-queue-return";
import { FrontierTable } from "../shared/aws/frontier-table";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { functionLogger } from "../shared/aws/function-logger";
import { HostPaceTable } from "../shared/aws/host-pace-table";
import { InvocationMetrics } from "../shared/aws/invocation-metrics";
import { QueuePutBack } from "../shared/aws/queue-put-back";
import { DedupQueueSender, FetchQueueSender } from "../shared/aws/queue-sender";
import { RawSamplesBucket } from "../shared/aws/raw-samples";
import { RevisionsBucket } from "../shared/aws/revisions-bucket";
import { loadS3Client } from "../shared/aws/s3-client";
import { makeSqsClient } from "../shared/aws/sqs-client";
import { clockFrom } from "../shared/config/clock";
import { crawlSettings } from "../shared/config/crawl-settings";
import {
  fetchMetrics,
  METRICS_NAMESPACE,
  metricService,
  OUTCOME_DIMENSION,
  SOURCE_PROPERTY,
} from "../shared/config/metrics";
import { DedupBatch, type DedupHandoff } from "../shared/crawl/dedup-handoff";
import { type FetchOutcome, TransientFetchError } from "../shared/crawl/fetch-article";
import { fetchAttempt, recordError, recordKilled } from "../shared/crawl/fetch-attempt";
import { Shingler } from "../shared/dedup/shingles";
import { RobotsCache } from "../shared/discover/robots";
import { MAX_WAIT_IN_FUNCTION_MS } from "../shared/fetch/host-slots";
import { HttpClient } from "../shared/fetch/http";
import { pacingHost } from "../shared/fetch/request-pacing";
import { type FetchMessage, fetchMessageSchema } from "../shared/records";
import { articleIdFor } from "../shared/url/canonical-url";

/** robots.txt is cached per warm container for this long. */
const ROBOTS_TTL_MS = 15 * 60 * 1000;
/**
 * Hosts worked at once, i.e. pages in memory at once (a batch holds at most 10). Measured with 5 MiB
 * pages of the worst shape (650,000 tiny elements) under a 128 MB heap: 1 host +85 MB over the
 * process's baseline, 3 hosts +108 MB, 4 +138 MB, 10 +195 MB. One such page peaks at 227 MB with the
 * handler loaded, so 3 hosts ≈ 250 MB: infra/memory-sizing.ts sizes fetch from that (275 MB); 10 would
 * need twice the memory for every page's wait.
 */
export const MAX_CONCURRENT_HOSTS = 3;

/** The record's fetch message, or why it is not one. */
function readFetchMessage(record: SQSRecord): { message: FetchMessage } | { error: string } {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch (err) {
    return { error: `not JSON: ${(err as Error).message}` };
  }
  const parsed = fetchMessageSchema.safeParse(body);
  return parsed.success ? { message: parsed.data } : { error: parsed.error.message };
}

/** The outcome as logged: an article's id only when rel=canonical moved it off the URL's (the correlation_id). */
function withoutSameId(outcome: FetchOutcome, correlation_id: string) {
  if (outcome.kind !== "article" || outcome.article_id !== correlation_id) return outcome;
  const { article_id: _, ...rest } = outcome;
  return rest;
}

/**
 * The handler's answer: the batch item failures (the pages put back among them), and which of those it
 * put back itself (`visibilitySet`): the event source leaves a failed message's visibility as it is, and
 * the local runtime's quick retry of failures (infra/local/sqs-driver.ts) must not undo a put-back.
 * The exported Lambda `handler` returns `batchItemFailures` only.
 */
export interface FetchBatchResponse extends SQSBatchResponse {
  readonly visibilitySet: string[];
}

/** Which delivery of its message this record is (SQS's receive count, 1 on the first). */
function deliveryOf(record: SQSRecord): number {
  return Number(record.attributes.ApproximateReceiveCount) || 1;
}

/** A page delivered before its reserved slot (its delay was SQS's 15-minute cap): put back to the slot
 * with no table call. */
function beforeSlot(msg: FetchMessage, now: number): boolean {
  return msg.slot_at !== undefined && now < msg.slot_at - MAX_WAIT_IN_FUNCTION_MS;
}

/** How many of this message's deliveries came before its slot, put back without a note: the first one
 * at most (it goes back to the slot itself). */
function earlyDeliveries(record: SQSRecord, msg: FetchMessage): number {
  const first = Number(record.attributes.ApproximateFirstReceiveTimestamp);
  return Number.isFinite(first) && beforeSlot(msg, first) ? 1 : 0;
}

/** A page that comes at its slot (reserved by discovery, or given at a put-back) holds it: it does not
 * queue behind the host's schedule again. */
function holdsSlot(record: SQSRecord, msg: FetchMessage): boolean {
  return deliveryOf(record) > 1 || msg.slot_at !== undefined;
}

/** One invocation's tallies: its metrics documents, and what its "fetch batch" line counts. */
interface BatchTally {
  readonly metrics: InvocationMetrics;
  /** Pages by outcome as the outcome metric counts them: an outcome's kind, or a failure's reason. */
  readonly outcomes: Record<string, number>;
  /** Recorded failures: their own lines are DEBUG, so the batch's line names each with its reason. */
  readonly failedPages: { url: string; reason: string }[];
  /** Pages delivered before their slot and sent again, delayed towards it. */
  resent: number;
}

export function createFetchHandler(env: Env) {
  const logger = functionLogger("storytrail-fetch");
  const metricsOptions = {
    namespace: env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: metricService.fetch,
  };
  /** The outcome by kind or reason (a metric dimension, and the batch's line); per source (a property,
   * not a dimension), pages, articles stored and those with a headline. */
  const count = (tally: BatchTally, outcome: string, sourceId: string, stored?: FetchOutcome) => {
    const { metrics } = tally;
    tally.outcomes[outcome] = (tally.outcomes[outcome] ?? 0) + 1;
    metrics.add(fetchMetrics.outcomes, MetricUnit.Count, 1, { name: OUTCOME_DIMENSION, value: outcome });
    const source = { name: SOURCE_PROPERTY, value: sourceId };
    const article = stored?.kind === "article";
    metrics.tally(fetchMetrics.pagesHandled, MetricUnit.Count, 1, source);
    metrics.tally(fetchMetrics.articlesStored, MetricUnit.Count, article ? 1 : 0, source);
    metrics.tally(
      fetchMetrics.withHeadline,
      MetricUnit.Count,
      article && stored.has_headline ? 1 : 0,
      source,
    );
  };
  const settings = crawlSettings(env);
  const { endpoints, region } = awsTarget(env);
  const { doc } = makeDynamoClients(endpoints, region);
  const http = new HttpClient({
    userAgent: settings.STORYTRAIL_USER_AGENT,
    allowPrivateAddresses: settings.STORYTRAIL_ALLOW_PRIVATE_ADDRESSES,
  });
  const sqs = makeSqsClient(endpoints, region);
  const deadLetters = new DeadLetterSender(sqs, resource.deadLetterQueueUrl(env, "fetch"));
  const pacer = new HostPaceTable(doc, resource.table(env, "hosts"), {
    minDelayMs: settings.STORYTRAIL_MIN_HOST_DELAY_MS,
  });
  let robots = new RobotsCache(http, settings.STORYTRAIL_USER_AGENT, pacer);
  let robotsSince = Date.now();
  // Only a fraction of pages is sampled: the S3 client loads with the first sample, not at cold start.
  const rawSamples = new RawSamplesBucket(() => loadS3Client(endpoints, region), resource.bucket(env, "raw"));
  const deps = {
    http,
    pacer,
    frontier: new FrontierTable(doc, resource.table(env, "frontier"), {
      retentionDays: settings.STORYTRAIL_FRONTIER_RETENTION_DAYS,
    }),
    articles: new ArticlesTable(doc, resource.table(env, "articles")),
    rawSamples,
    revisions: new RevisionsBucket(rawSamples),
    dedupQueue: new DedupQueueSender(sqs, resource.queueUrl(env, "dedup")),
    now: clockFrom(settings.STORYTRAIL_NOW),
    sampleRate: settings.STORYTRAIL_RAW_SAMPLE_RATE,
    recheckHours: settings.STORYTRAIL_RECHECK_HOURS,
    partners: settings.STORYTRAIL_CANONICAL_PARTNERS,
    // The container's scratch buffers for fingerprints (computed synchronously, one page at a time).
    shingler: new Shingler(),
  };

  // A page not due goes back to the queue: sent again towards its slot, or put back in flight.
  const returns = new FetchQueueReturn(
    new FetchQueueSender(sqs, resource.queueUrl(env, "fetch")),
    new QueuePutBack(sqs, resource.queueUrl(env, "fetch")),
  );

  const recordHandler = async (
    record: SQSRecord,
    msg: FetchMessage,
    tally: BatchTally,
    dedupHandoff: DedupHandoff,
  ) => {
    // The discovered URL's id (its Frontier key): discover, fetch and dedup log it, so one query follows a
    // URL through the pipeline (`fields correlation_id` in Logs Insights).
    const correlation_id = articleIdFor(msg.url);
    try {
      const outcome = await fetchAttempt(
        msg,
        deliveryOf(record),
        { ...deps, robots, dedupHandoff },
        record.messageId,
        earlyDeliveries(record, msg),
      );
      if (outcome.kind === "gave_up") {
        // Its Frontier item holds the reason; the copy in the DLQ is for a redrive once the host answers.
        logger.warn("gave up: parked in the dead-letter queue", { correlation_id, url: msg.url, ...outcome });
        await deadLetters.park(
          record,
          `${outcome.reason} after ${outcome.attempts} attempts: ${outcome.detail}`,
        );
        count(tally, outcome.reason, msg.source_id);
        return;
      }
      logger.debug("fetched", { correlation_id, url: msg.url, ...withoutSameId(outcome, correlation_id) });
      if (outcome.kind === "failed") tally.failedPages.push({ url: msg.url, reason: outcome.reason });
      count(tally, outcome.kind === "failed" ? outcome.reason : outcome.kind, msg.source_id, outcome);
    } catch (err) {
      if (err instanceof TransientFetchError) {
        logger.warn("transient fetch failure", { correlation_id, url: msg.url, reason: err.reason });
        count(tally, err.reason, msg.source_id);
      } else logger.error("fetch failed", { correlation_id, url: msg.url, error: String(err) });
      throw err;
    }
  };

  /**
   * A page put back until its host's slot: its Frontier item notes the delivery as skipped (not an
   * attempt), so the next delivery does not take it for one that was killed (fetch-attempt.ts).
   */
  const noteSkipped = (record: SQSRecord, msg: FetchMessage, at: number) => {
    const delivery = deliveryOf(record);
    return deps.frontier
      .markSkipped(msg.url, {
        delivery,
        message: record.messageId,
        detail: `delivery ${delivery} put back: its host is due at ${new Date(at).toISOString()}`,
        now: deps.now().toISOString(),
      })
      .catch((err) => logger.warn("could not note a put-back page", { url: msg.url, error: String(err) }));
  };

  /**
   * Sends the batch's articles to dedup, then records their pages' outcomes. A page whose message could
   * not be sent has the error on its Frontier item and comes again (or, on its last attempt, is parked);
   * one sent whose outcome could not be written comes again too (dedup takes a second copy as the first).
   */
  const handOver = async (
    handoff: DedupBatch<string>,
    admitted: readonly { pages: readonly { record: SQSRecord; msg: FetchMessage }[] }[],
    tally: BatchTally,
    failed: Set<string>,
  ) => {
    const failures = await handoff.flush();
    if (failures.length === 0) return;
    const pages = new Map(admitted.flatMap((a) => a.pages.map((p) => [p.record.messageId, p] as const)));
    for (const f of failures) {
      const { record, msg } = pages.get(f.key) as { record: SQSRecord; msg: FetchMessage };
      logger.error(f.sent ? "article sent to dedup, outcome not recorded" : "article not sent to dedup", {
        correlation_id: articleIdFor(msg.url),
        url: msg.url,
        error: String(f.error),
      });
      const gaveUp = f.sent
        ? null
        : await recordError(msg.url, f.error, deliveryOf(record), deps, record.messageId);
      if (gaveUp) {
        count(tally, gaveUp.reason, msg.source_id);
        await deadLetters
          .park(record, `${gaveUp.reason} after ${gaveUp.attempts} attempts: ${gaveUp.detail}`)
          .catch(() => failed.add(record.messageId));
      } else failed.add(record.messageId);
    }
  };

  return async (event: SQSEvent, context?: Context): Promise<FetchBatchResponse> => {
    if (context) logger.addContext(context);
    if (Date.now() - robotsSince > ROBOTS_TTL_MS) {
      robots = new RobotsCache(http, settings.STORYTRAIL_USER_AGENT, pacer);
      robotsSince = Date.now();
    }
    // This invocation's metrics (one document per outcome and per source, published even when it fails)
    // and its summary line's counts.
    const tally: BatchTally = {
      metrics: new InvocationMetrics(metricsOptions),
      outcomes: {},
      failedPages: [],
      resent: 0,
    };
    const failed = new Set<string>();
    // The Hosts table's clock (real time), not the records' (STORYTRAIL_NOW may set a past day).
    const arrivedAt = Date.now();
    const waiting: { record: SQSRecord; msg: FetchMessage; at: number; early?: boolean }[] = [];
    // The pages among them put back in flight (the others were sent again).
    let putBack: readonly { record: SQSRecord }[] = [];
    // The batch's pages by host; a page holding its slot first (discovery's, or a put-back's).
    const byHost = new Map<string, { record: SQSRecord; msg: FetchMessage }[]>();
    // The batch's articles go to dedup together, after its pages (dedup-handoff.ts).
    const handoff = new DedupBatch<string>(deps.dedupQueue);
    try {
      for (const record of event.Records) {
        const read = readFetchMessage(record);
        if ("error" in read) {
          // A malformed message cannot succeed on retry: parked in the DLQ at once.
          const reason = `malformed fetch message ${record.messageId}: ${read.error}`;
          logger.error("parked in the dead-letter queue", { messageId: record.messageId, reason });
          await deadLetters.park(record, reason).catch((err) => {
            logger.error("could not park a malformed message", { error: String(err) });
            failed.add(record.messageId);
          });
          count(tally, "malformed", "unknown");
          continue;
        }
        if (beforeSlot(read.message, arrivedAt)) {
          waiting.push({ record, msg: read.message, at: read.message.slot_at as number, early: true });
          continue;
        }
        // The page's pacing host (the Hosts table's key); the URL itself when it has none (fetch refuses it).
        const host = pacingHost(read.message.url) ?? read.message.url;
        const pages = byHost.get(host) ?? [];
        pages.push({ record, msg: read.message });
        byHost.set(host, pages);
      }
      // Every host admitted at once (table calls only): the pages not due go back before any page is
      // fetched, so an invocation killed by a slow page leaves them noted and on their way.
      const admitted: { host: string; pages: { record: SQSRecord; msg: FetchMessage }[] }[] = [];
      await Promise.all(
        [...byHost].map(async ([host, pages]) => {
          const rank = (p: (typeof pages)[number]) =>
            (holdsSlot(p.record, p.msg) ? 1e6 : 0) + deliveryOf(p.record);
          pages.sort((x, y) => rank(y) - rank(x));
          const [first] = pages as [(typeof pages)[number]];
          try {
            const admission = await pacer.admit(host, pages.length, {
              ...(first.msg.min_delay_ms === undefined ? {} : { minDelayMs: first.msg.min_delay_ms }),
              reserved: holdsSlot(first.record, first.msg),
              putBacks: deliveryOf(first.record) - 1 - earlyDeliveries(first.record, first.msg),
            });
            pages.slice(admission.taken).forEach((p, j) => {
              waiting.push({ ...p, at: admission.slots[j] as number });
            });
            if (admission.taken > 0) admitted.push({ host, pages: pages.slice(0, admission.taken) });
          } catch (err) {
            logger.error("could not admit a host's pages", { host, error: String(err) });
            for (const p of pages) failed.add(p.record.messageId);
          }
        }),
      );
      // A page back after a killed delivery records it now (the delivery after a put-back would not
      // know); one whose last allowed attempt that was is parked instead of put back.
      for (const w of [...waiting]) {
        if (deliveryOf(w.record) === 1) continue;
        const early = earlyDeliveries(w.record, w.msg);
        const gaveUp = await recordKilled(
          w.msg.url,
          deliveryOf(w.record),
          deps,
          w.record.messageId,
          early,
        ).catch((err) => {
          logger.warn("could not check a put-back page's last delivery", {
            url: w.msg.url,
            error: String(err),
          });
          return null;
        });
        if (!gaveUp) continue;
        waiting.splice(waiting.indexOf(w), 1);
        logger.warn("gave up: parked in the dead-letter queue", { url: w.msg.url, ...gaveUp });
        await deadLetters
          .park(w.record, `${gaveUp.reason} after ${gaveUp.attempts} attempts: ${gaveUp.detail}`)
          .catch(() => failed.add(w.record.messageId)); // not parked: delivered again, and parked then
        count(tally, gaveUp.reason, w.msg.source_id);
      }
      if (waiting.length > 0) {
        // A first delivery before its slot needs no note: the next delivery knows it from its slot.
        await Promise.all(
          waiting
            .filter((w) => !(w.early && deliveryOf(w.record) === 1))
            .map((w) => noteSkipped(w.record, w.msg, w.at)),
        );
        const returned = await returns.return(
          waiting.map((w) => ({
            ...w,
            receiptHandle: w.record.receiptHandle,
            message: w.msg,
            early: w.early === true,
          })),
        );
        if (returned.sendAgainError !== undefined)
          logger.warn("could not send pages again: put back", { error: String(returned.sendAgainError) });
        if (returned.putBackError !== undefined)
          logger.warn("could not put pages back", { error: String(returned.putBackError) });
        tally.resent = returned.sentAgain.length;
        putBack = returned.putBack;
        for (const w of returned.putBack) {
          failed.add(w.record.messageId);
          if (returned.refused.has(w.receiptHandle)) logger.warn("page not put back", { url: w.msg.url });
        }
      }
      let next = 0;
      // A fixed pool: never more than MAX_CONCURRENT_HOSTS pages in memory at once.
      const worker = async () => {
        for (let i = next++; i < admitted.length; i = next++) {
          const { host, pages } = admitted[i] as (typeof admitted)[number];
          for (const [j, { record, msg }] of pages.entries()) {
            // While more of the host's pages follow, each request's end keeps the host for the next.
            pacer.expectMore(host, j < pages.length - 1);
            try {
              await recordHandler(record, msg, tally, handoff.for(record.messageId));
            } catch {
              failed.add(record.messageId);
            }
          }
        }
      };
      await Promise.all(Array.from({ length: MAX_CONCURRENT_HOSTS }, worker));
      await handOver(handoff, admitted, tally, failed);
      const visibilitySet = putBack.map((w) => w.record.messageId);
      const batchItemFailures = event.Records.filter((r) => failed.has(r.messageId)).map((r) => ({
        itemIdentifier: r.messageId,
      }));
      // The batch's one INFO line. An invocation that throws has Lambda's error line instead (and its
      // metrics): its whole batch comes again.
      logger.info("fetch batch", {
        pages: event.Records.length,
        outcomes: tally.outcomes,
        ...(tally.failedPages.length > 0 ? { failed_pages: tally.failedPages } : {}),
        put_back: visibilitySet.length,
        ...(tally.resent > 0 ? { sent_again: tally.resent } : {}),
        // Delivered again besides the put-backs: each has its WARN or ERROR line.
        failures: batchItemFailures.length - visibilitySet.length,
      });
      return { batchItemFailures, visibilitySet };
    } finally {
      // A host taken for a page that made no request goes back; failing that, the host idles one lease.
      await pacer
        .release(byHost.keys())
        .catch((err) => logger.warn("could not release a host slot", { error: String(err) }));
      tally.metrics.publish();
    }
  };
}

let cached: ReturnType<typeof createFetchHandler> | undefined;
/** Lambda gets the batch item failures alone: `visibilitySet` is for the local runtime's driver. */
export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  cached ??= createFetchHandler(process.env);
  const { batchItemFailures } = await cached(event, context);
  return { batchItemFailures };
};
