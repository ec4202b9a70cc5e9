/** dispatch λ (scheduled tick): the sources due now, from the Sources table → one discover message each. */
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import type { Context } from "aws-lambda";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { functionLogger } from "../shared/aws/function-logger";
import { InvocationMetrics } from "../shared/aws/invocation-metrics";
import { DiscoverQueueSender } from "../shared/aws/queue-sender";
import { SourceCatalogTable } from "../shared/aws/source-catalog-table";
import { makeSqsClient } from "../shared/aws/sqs-client";
import { clockFrom } from "../shared/config/clock";
import { crawlSettings } from "../shared/config/crawl-settings";
import { dispatchMetrics, METRICS_NAMESPACE, metricService } from "../shared/config/metrics";
import { type DispatchSummary, dispatchDue } from "../shared/crawl/dispatch-run";
import { DEFAULT_SOURCE_SCHEDULE, parseCadence } from "../shared/discover/cadence";

export interface DispatchEvent {
  /** The tick's scheduled time (the schedule passes `<aws.scheduler.scheduled-time>`); default: now. */
  readonly scheduled_time?: string;
  /** The cadence of sources that name none (the stack's `-c discoverSchedule`, else the daily default). */
  readonly default_schedule?: string;
  /** Start every source, due or not (a manual run). */
  readonly all?: boolean;
  readonly run_id?: string;
}

export function createDispatchHandler(env: Env) {
  const logger = functionLogger("storytrail-dispatch");
  const metricsOptions = {
    namespace: env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: metricService.dispatch,
  };
  const clock = clockFrom(crawlSettings(env).STORYTRAIL_NOW);
  const { endpoints, region } = awsTarget(env);
  const { doc } = makeDynamoClients(endpoints, region);
  const catalog = new SourceCatalogTable(doc, resource.table(env, "sources"));
  const queue = new DiscoverQueueSender(makeSqsClient(endpoints, region), resource.queueUrl(env, "discover"));

  return async (event: DispatchEvent, context?: Context): Promise<DispatchSummary> => {
    if (context) logger.addContext(context);
    const scheduledTime = event.scheduled_time ? new Date(event.scheduled_time) : clock();
    if (Number.isNaN(scheduledTime.getTime()))
      throw new Error(`dispatch: scheduled_time is not a time: ${event.scheduled_time}`);
    const defaultSchedule = event.default_schedule ?? DEFAULT_SOURCE_SCHEDULE;
    parseCadence(defaultSchedule); // a bad deploy setting fails here, loudly, not as "nothing is due"
    const summary = await dispatchDue(catalog, queue, {
      scheduledTime,
      defaultSchedule,
      ...(event.all ? { all: true } : {}),
      ...(event.run_id ? { runId: event.run_id } : {}),
    });
    logger.info("dispatched", { ...summary });
    const metrics = new InvocationMetrics(metricsOptions);
    metrics.add(dispatchMetrics.dispatched, MetricUnit.Count, summary.dispatched);
    metrics.publish();
    return summary;
  };
}

let cached: ReturnType<typeof createDispatchHandler> | undefined;
export const handler = (event: DispatchEvent, context?: Context) => {
  cached ??= createDispatchHandler(process.env);
  return cached(event, context);
};
