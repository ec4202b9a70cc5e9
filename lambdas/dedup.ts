/**
 * dedup λ (SQS): article fingerprint → LSH candidates → confirmed copies → story cluster records.
 *
 * Logs: one INFO line per invocation ("dedup batch": articles, new stories, joined, merged, failures). An
 * article's own "clustered" line is DEBUG (POWERTOOLS_LOG_LEVEL=DEBUG for an investigation): its story is
 * in the Clusters table, and a line an article at INFO paid Logs ingestion for a copy of it (issue 26). An
 * article that fails has a WARN line with why (SQS delivers it again).
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { DynamoDedupStore } from "../shared/aws/dedup-tables";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { functionLogger } from "../shared/aws/function-logger";
import { InvocationMetrics } from "../shared/aws/invocation-metrics";
import { clockFrom } from "../shared/config/clock";
import { crawlSettings } from "../shared/config/crawl-settings";
import { dedupMetrics, METRICS_NAMESPACE, metricService } from "../shared/config/metrics";
import { clusterIdFor } from "../shared/dedup/clusterer";
import { fingerprintSchema } from "../shared/dedup/fingerprint";
import { addArticleRetrying } from "../shared/dedup/retry-on-conflict";
import { dedupMessageSchema } from "../shared/records";
import { reviseMember } from "../shared/revisions/member-revision";

/** Lost races are retried here first (addArticle is idempotent); past this, SQS redelivers. */
const CONFLICT_RETRIES = 8;

/** One invocation's counts, for its "dedup batch" line. */
interface BatchTally {
  newStories: number;
  joined: number;
  /** Stories retired into another by this batch's articles. */
  merged: number;
  /** Articles whose message carried a revision (their member items took it). */
  revised: number;
}

export function createDedupHandler(env: Env) {
  const logger = functionLogger("storytrail-dedup");
  const metricsOptions = {
    namespace: env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: metricService.dedup,
  };
  const settings = crawlSettings(env);
  // The stories' timestamps and the LSH entries' TTL read the functions' clock (deployed, the wall clock;
  // a local run's TTL emulation expires items on the run's clock).
  const clock = clockFrom(settings.STORYTRAIL_NOW);
  const { endpoints, region } = awsTarget(env);
  const { doc } = makeDynamoClients(endpoints, region);
  const store = new DynamoDedupStore(
    doc,
    {
      fingerprints: resource.table(env, "fingerprints"),
      buckets: resource.table(env, "buckets"),
      clusters: resource.table(env, "clusters"),
    },
    { lshRetentionDays: settings.STORYTRAIL_LSH_RETENTION_DAYS, nowMs: () => clock().getTime() },
  );

  const recordHandler = async (record: SQSRecord, metrics: InvocationMetrics, tally: BatchTally) => {
    const msg = dedupMessageSchema.parse(JSON.parse(record.body));
    const fingerprint = fingerprintSchema.parse(msg.fingerprint);
    const { revision, ...rest } = msg;
    const article = { ...rest, fingerprint };
    const cluster = () =>
      addArticleRetrying(store, article, { attempts: CONFLICT_RETRIES, now: () => clock().toISOString() });
    if (revision) {
      // A revised article stays in its story (shared/revisions/member-revision.ts says why).
      const cluster_id = await reviseMember(store, article, revision, cluster);
      logger.debug("revised", { correlation_id: msg.article_id, cluster_id, revision: revision.number });
      tally.revised++;
      return;
    }
    const out = await cluster();
    // The article's id is the URL id fetch logged as correlation_id, or its article_id when the page's
    // rel=canonical moved it. `merged` only when the article merged stories.
    logger.debug("clustered", {
      correlation_id: msg.article_id,
      cluster_id: out.cluster_id,
      ...(out.merged.length > 0 ? { merged: out.merged } : {}),
    });
    const founded = out.cluster_id === clusterIdFor(msg.article_id);
    metrics.add(founded ? dedupMetrics.newStories : dedupMetrics.joined, MetricUnit.Count, 1);
    if (founded) tally.newStories++;
    else tally.joined++;
    if (out.merged.length > 0) metrics.add(dedupMetrics.merges, MetricUnit.Count, out.merged.length);
    tally.merged += out.merged.length;
  };

  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) logger.addContext(context);
    // This invocation's counts, one document (a container's concurrent local invocations keep theirs apart).
    const metrics = new InvocationMetrics(metricsOptions);
    const tally: BatchTally = { newStories: 0, joined: 0, merged: 0, revised: 0 };
    try {
      const handle = (record: SQSRecord) =>
        recordHandler(record, metrics, tally).catch((err: unknown) => {
          // The batch processor keeps a failure to itself: its reason is logged here.
          logger.warn("not clustered", { message_id: record.messageId, error: String(err) });
          throw err;
        });
      const response = await processPartialResponse(event, handle, new BatchProcessor(EventType.SQS), {
        context,
        throwOnFullBatchFailure: false,
      });
      logger.info("dedup batch", {
        articles: event.Records.length,
        new_stories: tally.newStories,
        joined: tally.joined,
        merged: tally.merged,
        revised: tally.revised,
        failures: response.batchItemFailures.length,
      });
      return response;
    } finally {
      metrics.publish();
    }
  };
}

let cached: ReturnType<typeof createDedupHandler> | undefined;
export const handler = (event: SQSEvent, context?: Context) => {
  cached ??= createDedupHandler(process.env);
  return cached(event, context);
};
