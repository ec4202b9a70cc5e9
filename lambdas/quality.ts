/**
 * quality λ (scheduled, daily): per-publisher extraction quality over the last day (articles, median
 * body words, share with a valid date), kept as a bounded history per source; a sudden drop against
 * the source's own history is logged and counted in the QualityDrops metric, which alarms.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { queryQualitySamples } from "../shared/aws/articles-table";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { SourcesTable } from "../shared/aws/sources-table";
import { METRICS_NAMESPACE, metricService, qualityMetrics, SOURCE_DIMENSION } from "../shared/config/metrics";
import {
  appendHistory,
  type DailyQuality,
  detectDrops,
  type QualityDrop,
  type QualitySample,
  summarise,
} from "../shared/quality/publisher-stats";

const logger = new Logger({ serviceName: "storytrail-quality" });

export interface QualityEvent {
  /** End of the day to judge (defaults to now); the window is the 24 hours before it. */
  readonly at?: string;
}

export interface QualityReport {
  readonly day: string;
  readonly sources: Record<string, DailyQuality>;
  readonly drops: QualityDrop[];
}

export function createQualityHandler(env: Env) {
  const { endpoints, region } = awsTarget(env);
  const { doc } = makeDynamoClients(endpoints, region);
  const articlesTable = resource.table(env, "articles");
  const sources = new SourcesTable(doc, resource.table(env, "sources"));
  const metrics = new Metrics({
    namespace: env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: metricService.quality,
  });

  return async (event: QualityEvent = {}): Promise<QualityReport> => {
    const at = event.at ? new Date(event.at) : new Date();
    const day = at.toISOString().slice(0, 10);
    const samples: QualitySample[] = [];
    for await (const s of queryQualitySamples(doc, articlesTable, new Date(at.getTime() - 86_400_000), at)) {
      samples.push(s);
    }
    const today = summarise(samples, day);
    const ids = new Set(today.keys());
    for await (const id of sources.sourceIds()) ids.add(id);

    const drops: QualityDrop[] = [];
    for (const id of [...ids].sort()) {
      const history = (await sources.qualityHistory(id)).filter((h) => h.day !== day);
      const figures = today.get(id);
      drops.push(...detectDrops(id, figures, history));
      if (figures) {
        await sources.saveQualityHistory(id, appendHistory(history, figures));
        const m = metrics.singleMetric();
        m.addDimension(SOURCE_DIMENSION, id);
        m.addMetric(qualityMetrics.articles, MetricUnit.Count, figures.articles);
        m.addMetric(qualityMetrics.medianBodyWords, MetricUnit.Count, figures.median_words);
        m.addMetric(qualityMetrics.validDateShare, MetricUnit.Percent, figures.valid_date_share * 100);
      }
    }
    for (const d of drops) logger.warn("extraction quality drop", { ...d });
    metrics.addMetric(qualityMetrics.drops, MetricUnit.Count, drops.length);
    metrics.publishStoredMetrics();
    return { day, sources: Object.fromEntries(today), drops };
  };
}

let cached: ReturnType<typeof createQualityHandler> | undefined;
export const handler = (event?: QualityEvent) => {
  cached ??= createQualityHandler(process.env);
  return cached(event);
};
