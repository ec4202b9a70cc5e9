/**
 * fetch λ (FIFO SQS, one group per host): fetch → extract → raw sample (a share, every thin page) →
 * Articles → dedup queue. A batch's hosts are worked concurrently, each host's pages in order, so their
 * waits overlap.
 */
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { ArticlesTable } from "../shared/aws/articles-table";
import { DeadLetterSender } from "../shared/aws/dead-letter-sender";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { FrontierTable } from "../shared/aws/frontier-table";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { functionLogger } from "../shared/aws/function-logger";
import { HostPaceTable } from "../shared/aws/host-pace-table";
import { InvocationMetrics } from "../shared/aws/invocation-metrics";
import { DedupQueueSender } from "../shared/aws/queue-sender";
import { RawSamplesBucket } from "../shared/aws/raw-samples";
import { loadS3Client } from "../shared/aws/s3-client";
import { makeSqsClient } from "../shared/aws/sqs-client";
import { followedInGroup, processFifoGroupsConcurrently } from "../shared/batch/fifo-groups-concurrently";
import { clockFrom } from "../shared/config/clock";
import { crawlSettings } from "../shared/config/crawl-settings";
import {
  fetchMetrics,
  METRICS_NAMESPACE,
  metricService,
  OUTCOME_DIMENSION,
  SOURCE_PROPERTY,
} from "../shared/config/metrics";
import { type FetchOutcome, TransientFetchError } from "../shared/crawl/fetch-article";
import { fetchAttempt } from "../shared/crawl/fetch-attempt";
import { Shingler } from "../shared/dedup/shingles";
import { RobotsCache } from "../shared/discover/robots";
import { HttpClient } from "../shared/fetch/http";
import { type FetchMessage, fetchMessageSchema } from "../shared/records";
import { articleIdFor } from "../shared/url/canonical-url";

/** robots.txt is cached per warm container for this long. */
const ROBOTS_TTL_MS = 15 * 60 * 1000;
/**
 * Hosts worked at once, i.e. pages in memory at once (a FIFO batch holds at most 10). Measured with 5 MiB
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

/** Which delivery of its message this record is (SQS's receive count, 1 on the first). */
function deliveryOf(record: SQSRecord): number {
  return Number(record.attributes.ApproximateReceiveCount) || 1;
}

export function createFetchHandler(env: Env) {
  const logger = functionLogger("storytrail-fetch");
  const metricsOptions = {
    namespace: env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: metricService.fetch,
  };
  /** The outcome by kind or reason; per source (a property, not a dimension), pages, articles stored
   * and those with a headline. */
  const count = (metrics: InvocationMetrics, outcome: string, sourceId: string, stored?: FetchOutcome) => {
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
  const deps = {
    http,
    pacer,
    frontier: new FrontierTable(doc, resource.table(env, "frontier")),
    articles: new ArticlesTable(doc, resource.table(env, "articles")),
    // Only a fraction of pages is sampled: the S3 client loads with the first sample, not at cold start.
    rawSamples: new RawSamplesBucket(() => loadS3Client(endpoints, region), resource.bucket(env, "raw")),
    dedupQueue: new DedupQueueSender(sqs, resource.queueUrl(env, "dedup")),
    now: clockFrom(settings.STORYTRAIL_NOW),
    sampleRate: settings.STORYTRAIL_RAW_SAMPLE_RATE,
    partners: settings.STORYTRAIL_CANONICAL_PARTNERS,
    // The container's scratch buffers for fingerprints (computed synchronously, one page at a time).
    shingler: new Shingler(),
  };

  /** `more`: a later page of the same host follows in this batch (the pacer then holds its slot). */
  const recordHandler = async (record: SQSRecord, more: boolean, metrics: InvocationMetrics) => {
    const read = readFetchMessage(record);
    if ("error" in read) {
      // A malformed message cannot succeed on retry: parked in the DLQ at once, its host's pages go on.
      const reason = `malformed fetch message ${record.messageId}: ${read.error}`;
      logger.error("parked in the dead-letter queue", { messageId: record.messageId, reason });
      await deadLetters.park(record, reason);
      count(metrics, "malformed", "unknown");
      return;
    }
    const msg = read.message;
    // The discovered URL's id (its Frontier key): discover, fetch and dedup log it, so one query follows a
    // URL through the pipeline (`fields correlation_id` in Logs Insights).
    const correlation_id = articleIdFor(msg.url);
    // The FIFO group is the page's pacing host (queue-sender.ts), as for `more` and the release below.
    const group = record.attributes.MessageGroupId;
    if (group !== undefined) pacer.expectMore(group, more);
    try {
      const outcome = await fetchAttempt(msg, deliveryOf(record), { ...deps, robots });
      if (outcome.kind === "gave_up") {
        // Its Frontier item holds the reason; the copy in the DLQ is for a redrive once the host answers.
        logger.warn("gave up: parked in the dead-letter queue", { correlation_id, url: msg.url, ...outcome });
        await deadLetters.park(
          record,
          `${outcome.reason} after ${outcome.attempts} attempts: ${outcome.detail}`,
        );
        count(metrics, outcome.reason, msg.source_id);
        return;
      }
      logger.info("fetched", { correlation_id, url: msg.url, ...withoutSameId(outcome, correlation_id) });
      count(metrics, outcome.kind === "failed" ? outcome.reason : outcome.kind, msg.source_id, outcome);
    } catch (err) {
      if (err instanceof TransientFetchError) {
        logger.warn("transient fetch failure", { correlation_id, url: msg.url, reason: err.reason });
        count(metrics, err.reason, msg.source_id);
      } else logger.error("fetch failed", { correlation_id, url: msg.url, error: String(err) });
      throw err;
    }
  };

  /** A message failed unread behind a failed page of its host: its Frontier item says so (not a crash). */
  const markSkipped = async (record: SQSRecord) => {
    const read = readFetchMessage(record);
    if ("error" in read) return; // a malformed message fails on its own account when it is read
    const msg = read.message;
    const delivery = deliveryOf(record);
    await deps.frontier
      .markSkipped(msg.url, {
        delivery,
        detail: `delivery ${delivery} skipped: an earlier page of ${record.attributes.MessageGroupId ?? "its host"} failed in the same batch`,
        now: deps.now().toISOString(),
      })
      .catch((err) => logger.warn("could not mark a skipped page", { url: msg.url, error: String(err) }));
  };

  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) logger.addContext(context);
    if (Date.now() - robotsSince > ROBOTS_TTL_MS) {
      robots = new RobotsCache(http, settings.STORYTRAIL_USER_AGENT, pacer);
      robotsSince = Date.now();
    }
    const followed = followedInGroup(event.Records);
    // This invocation's metrics: one document per outcome and per source, published even when it fails.
    const metrics = new InvocationMetrics(metricsOptions);
    try {
      return await processFifoGroupsConcurrently(
        event,
        (record) => recordHandler(record, followed.has(record.messageId), metrics),
        {
          ...(context ? { context } : {}),
          maxConcurrentGroups: MAX_CONCURRENT_HOSTS,
          onSkipped: markSkipped,
        },
      );
    } finally {
      // A slot held for a page that made no request goes back; failing that, the host idles one interval.
      await pacer
        .release(event.Records.flatMap((r) => r.attributes.MessageGroupId ?? []))
        .catch((err) => logger.warn("could not release a host slot", { error: String(err) }));
      metrics.publish();
    }
  };
}

let cached: ReturnType<typeof createFetchHandler> | undefined;
export const handler = (event: SQSEvent, context?: Context) => {
  cached ??= createFetchHandler(process.env);
  return cached(event, context);
};
