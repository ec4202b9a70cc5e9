/** discover λ (SQS, from the dispatcher): one source per message → robots, sitemaps, feeds → new canonical URLs on the fetch queue. */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { FrontierTable } from "../shared/aws/frontier-table";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { functionLogger } from "../shared/aws/function-logger";
import { HostPaceTable } from "../shared/aws/host-pace-table";
import { InvocationMetrics } from "../shared/aws/invocation-metrics";
import { FetchQueueSender } from "../shared/aws/queue-sender";
import { SourcesTable } from "../shared/aws/sources-table";
import { makeSqsClient } from "../shared/aws/sqs-client";
import { clockFrom } from "../shared/config/clock";
import { crawlSettings } from "../shared/config/crawl-settings";
import { discoverMetrics, METRICS_NAMESPACE, metricService } from "../shared/config/metrics";
import { parseDiscoverMessage } from "../shared/crawl/discover-message";
import { type DiscoverRunSummary, runDiscovery } from "../shared/crawl/discover-run";
import { RobotsCache } from "../shared/discover/robots";
import { HttpClient } from "../shared/fetch/http";

export interface DiscoverHooks {
  /** Each source's run, as it ends (the local runtime adds them up into a run's summary). */
  readonly onRun?: (summary: DiscoverRunSummary) => void;
}

export function createDiscoverHandler(env: Env, hooks: DiscoverHooks = {}) {
  const logger = functionLogger("storytrail-discover");
  const metricsOptions = {
    namespace: env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: metricService.discover,
  };
  const settings = crawlSettings(env);
  const clock = clockFrom(settings.STORYTRAIL_NOW);
  const { endpoints, region } = awsTarget(env);
  const { doc } = makeDynamoClients(endpoints, region);
  const http = new HttpClient({
    userAgent: settings.STORYTRAIL_USER_AGENT,
    allowPrivateAddresses: settings.STORYTRAIL_ALLOW_PRIVATE_ADDRESSES,
  });
  const frontier = new FrontierTable(doc, resource.table(env, "frontier"), {
    retentionDays: settings.STORYTRAIL_FRONTIER_RETENTION_DAYS,
  });
  const sourceState = new SourcesTable(doc, resource.table(env, "sources"));
  const fetchQueue = new FetchQueueSender(makeSqsClient(endpoints, region), resource.queueUrl(env, "fetch"));
  // The one pacer, the Hosts table fetch paces by: discovery's requests (robots.txt, sitemaps, feeds) and
  // fetch's keep one pace per host, and each page discovery sends gets its slot there.
  const minDelayMs = settings.STORYTRAIL_MIN_HOST_DELAY_MS;
  const hostPace = new HostPaceTable(doc, resource.table(env, "hosts"), { minDelayMs });
  const robots = new RobotsCache(http, settings.STORYTRAIL_USER_AGENT, hostPace);

  const recordHandler = async (record: SQSRecord, metrics: InvocationMetrics, context?: Context) => {
    let message: ReturnType<typeof parseDiscoverMessage>;
    try {
      message = parseDiscoverMessage(record.body);
    } catch (err) {
      // Reported failed: retried, then kept in the DLQ (alarmed); the reason is logged here.
      logger.error("malformed discover message", { message_id: record.messageId, reason: String(err) });
      throw err;
    }
    const { run_id, source } = message;
    const summary = await runDiscovery([source], run_id, {
      http,
      robots,
      minHostDelayMs: minDelayMs,
      pacer: hostPace,
      schedule: hostPace,
      frontier,
      sourceState,
      fetchQueue,
      now: clock,
      recheckHours: settings.STORYTRAIL_RECHECK_HOURS,
      log: (msg, data) => logger.warn(msg, data),
      // The source's time budget is what is left of this invocation.
      ...(context ? { remainingMs: () => context.getRemainingTimeInMillis() } : {}),
    });
    logger.info("source discovered", { ...summary.sources[0], run_id, enqueued: summary.enqueued });
    const [s] = summary.sources;
    metrics.add(discoverMetrics.discovered, MetricUnit.Count, s?.discovered ?? 0);
    metrics.add(discoverMetrics.enqueued, MetricUnit.Count, summary.enqueued);
    metrics.add(discoverMetrics.sourcesTimedOut, MetricUnit.Count, s && !s.completed ? 1 : 0);
    hooks.onRun?.(summary);
  };

  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) logger.addContext(context);
    const metrics = new InvocationMetrics(metricsOptions);
    try {
      // The batch's sources run at once (the batch size bounds them, topology.ts), each on its own budget.
      return await processPartialResponse(
        event,
        (record: SQSRecord) => recordHandler(record, metrics, context),
        new BatchProcessor(EventType.SQS),
        { context, throwOnFullBatchFailure: false },
      );
    } finally {
      metrics.publish();
    }
  };
}

let cached: ReturnType<typeof createDiscoverHandler> | undefined;
export const handler = (event: SQSEvent, context?: Context) => {
  cached ??= createDiscoverHandler(process.env);
  return cached(event, context);
};
