/** discover λ (scheduled): sources in the event → robots, sitemaps, feeds → new canonical URLs on the fetch queue. */
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { Context } from "aws-lambda";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { FrontierTable } from "../shared/aws/frontier-table";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { functionLogger } from "../shared/aws/function-logger";
import { HostPaceTable } from "../shared/aws/host-pace-table";
import { FetchQueueSender } from "../shared/aws/queue-sender";
import { SourcesTable } from "../shared/aws/sources-table";
import { makeSqsClient } from "../shared/aws/sqs-client";
import { clockFrom } from "../shared/config/clock";
import { crawlSettings } from "../shared/config/crawl-settings";
import { discoverMetrics, METRICS_NAMESPACE, metricService } from "../shared/config/metrics";
import { type DiscoverRunSummary, runDiscovery } from "../shared/crawl/discover-run";
import { RobotsCache } from "../shared/discover/robots";
import { parseSources } from "../shared/discover/sources";
import { HttpClient } from "../shared/fetch/http";

export interface DiscoverEvent {
  /** The sources to crawl: `{ sources: [...] }` as in sources.example.json. */
  readonly sources: unknown;
  /** Retries of one scheduled run share it, so their claims are re-sent, not lost. Defaults to the UTC hour. */
  readonly run_id?: string;
}

export function createDiscoverHandler(env: Env) {
  const logger = functionLogger("storytrail-discover");
  const metrics = new Metrics({
    namespace: env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: metricService.discover,
  });
  const settings = crawlSettings(env);
  const clock = clockFrom(settings.STORYTRAIL_NOW);
  const { endpoints, region } = awsTarget(env);
  const { doc } = makeDynamoClients(endpoints, region);
  const http = new HttpClient({
    userAgent: settings.STORYTRAIL_USER_AGENT,
    allowPrivateAddresses: settings.STORYTRAIL_ALLOW_PRIVATE_ADDRESSES,
  });
  const frontier = new FrontierTable(doc, resource.table(env, "frontier"));
  const sourceState = new SourcesTable(doc, resource.table(env, "sources"));
  const fetchQueue = new FetchQueueSender(makeSqsClient(endpoints, region), resource.queueUrl(env, "fetch"));
  // The Hosts table fetch paces by: discovery's requests (robots.txt, sitemaps, feeds) and fetch's keep one pace per host.
  const hosts = resource.table(env, "hosts");
  const minDelayMs = settings.STORYTRAIL_MIN_HOST_DELAY_MS;
  const robotsPacer = new HostPaceTable(doc, hosts, { minDelayMs });

  return async (event: DiscoverEvent, context?: Context): Promise<DiscoverRunSummary> => {
    if (context) logger.addContext(context);
    const sources = parseSources(event.sources);
    const runId = event.run_id ?? clock().toISOString().slice(0, 13);
    const summary = await runDiscovery(sources, runId, {
      http,
      robots: new RobotsCache(http, settings.STORYTRAIL_USER_AGENT, robotsPacer),
      minHostDelayMs: minDelayMs,
      pacer: (opts) => new HostPaceTable(doc, hosts, opts),
      frontier,
      sourceState,
      fetchQueue,
      now: clock,
      log: (msg, data) => logger.warn(msg, data),
      // Each source's time budget is cut from what is left of this invocation.
      ...(context ? { remainingMs: () => context.getRemainingTimeInMillis() } : {}),
    });
    logger.info("discovery run finished", { ...summary });
    const sum = (f: (s: DiscoverRunSummary["sources"][number]) => number) =>
      summary.sources.reduce((n, s) => n + f(s), 0);
    metrics.addMetric(
      discoverMetrics.discovered,
      MetricUnit.Count,
      sum((s) => s.discovered),
    );
    metrics.addMetric(discoverMetrics.enqueued, MetricUnit.Count, summary.enqueued);
    metrics.addMetric(
      discoverMetrics.sourcesTimedOut,
      MetricUnit.Count,
      sum((s) => (s.completed ? 0 : 1)),
    );
    metrics.publishStoredMetrics();
    return summary;
  };
}

let cached: ReturnType<typeof createDiscoverHandler> | undefined;
export const handler = (event: DiscoverEvent, context?: Context) => {
  cached ??= createDiscoverHandler(process.env);
  return cached(event, context);
};
