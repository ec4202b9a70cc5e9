/**
 * quality λ (scheduled, daily): per-publisher extraction quality over the last day against each
 * source's own history (shared/quality/quality-run.ts). Every drop is a finding with its evidence,
 * kept on the source's item and logged; the publishers with one are counted in
 * PublishersWithQualityDrop, which alarms. Per-publisher figures name the source as a log property.
 */
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import type { Context } from "aws-lambda";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { functionLogger } from "../shared/aws/function-logger";
import { InvocationMetrics } from "../shared/aws/invocation-metrics";
import { DynamoQualityStore } from "../shared/aws/quality-store";
import { clockFrom } from "../shared/config/clock";
import { crawlSettings } from "../shared/config/crawl-settings";
import { METRICS_NAMESPACE, metricService, qualityMetrics, SOURCE_PROPERTY } from "../shared/config/metrics";
import { type QualityReport, runQuality } from "../shared/quality/quality-run";

export type { QualityReport };

export interface QualityEvent {
  /** End of the day to judge (defaults to now); the window is the 24 hours before it. */
  readonly at?: string;
}

export function createQualityHandler(env: Env) {
  const { endpoints, region } = awsTarget(env);
  const { doc } = makeDynamoClients(endpoints, region);
  const store = new DynamoQualityStore(doc, {
    articles: resource.table(env, "articles"),
    sources: resource.table(env, "sources"),
  });
  const clock = clockFrom(crawlSettings(env).STORYTRAIL_NOW);
  const logger = functionLogger("storytrail-quality");
  const metricsOptions = {
    namespace: env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: metricService.quality,
  };

  return async (event: QualityEvent = {}, context?: Context): Promise<QualityReport> => {
    if (context) logger.addContext(context);
    const report = await runQuality(store, event.at ? new Date(event.at) : clock());
    // One document per source with its three figures, the source a property (Logs Insights), not a dimension.
    const metrics = new InvocationMetrics(metricsOptions);
    for (const [id, figures] of Object.entries(report.sources)) {
      const source = { name: SOURCE_PROPERTY, value: id };
      metrics.tally(qualityMetrics.articles, MetricUnit.Count, figures.articles, source);
      metrics.tally(qualityMetrics.medianBodyWords, MetricUnit.Count, figures.median_words, source);
      metrics.tally(
        qualityMetrics.validDateShare,
        MetricUnit.Percent,
        figures.valid_date_share * 100,
        source,
      );
    }
    for (const f of report.findings) logger.warn("extraction quality drop", { ...f });
    metrics.add(qualityMetrics.drops, MetricUnit.Count, report.findings.length);
    const publishers = new Set(report.findings.map((f) => f.source_id)).size;
    metrics.add(qualityMetrics.publishersWithDrop, MetricUnit.Count, publishers);
    metrics.publish();
    return report;
  };
}

let cached: ReturnType<typeof createQualityHandler> | undefined;
export const handler = (event?: QualityEvent, context?: Context) => {
  cached ??= createQualityHandler(process.env);
  return cached(event, context);
};
