/**
 * The ops dashboard: one page that tells the day's story, stage by stage. Built from the stack's
 * queues and functions (the topology) and the custom metrics declared in shared/config/metrics.ts.
 */
import { Duration } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import type * as logs from "aws-cdk-lib/aws-logs";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import type { Construct } from "constructs";
import {
  dedupMetrics,
  discoverMetrics,
  dispatchMetrics,
  fetchMetrics,
  METRICS_NAMESPACE,
  metricService,
  OUTCOME_DIMENSION,
  qualityMetrics,
  SOURCE_PROPERTY,
} from "../shared/config/metrics";

export interface DashboardInputs {
  readonly queues: Readonly<Record<string, sqs.IQueue>>;
  readonly deadLetterQueues: Readonly<Record<string, sqs.IQueue>>;
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
  /** The fetch and quality functions' log groups: per-publisher figures are queried there. */
  readonly logGroups: { readonly fetch: logs.ILogGroup; readonly quality: logs.ILogGroup };
}

/** Publishers in the worst-publishers tables. */
const WORST_PUBLISHERS = 20;

const FIVE_MINUTES = Duration.minutes(5);
const DAY = Duration.days(1);

/** One line per value of `dimension` (CloudWatch SEARCH), e.g. per source or per fetch outcome. */
function perDimension(
  service: string,
  dimension: string,
  metricName: string,
  label: string,
  stat: "Average" | "Sum" = "Average",
): cloudwatch.MathExpression {
  return new cloudwatch.MathExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},service,${dimension}} MetricName="${metricName}" service="${service}"', '${stat}', 86400)`,
    label,
    period: DAY,
  });
}

/**
 * The worst publishers over the dashboard's time range, from the EMF documents that name the source
 * as a property (Logs Insights reads them as log fields): no custom metric per publisher.
 */
function worstPublishers(logGroups: DashboardInputs["logGroups"]): cloudwatch.LogQueryWidget[] {
  const src = SOURCE_PROPERTY;
  const { pagesHandled: pages, articlesStored: stored, withHeadline } = fetchMetrics;
  const { articles, medianBodyWords, validDateShare } = qualityMetrics;
  return [
    new cloudwatch.LogQueryWidget({
      title: `Worst ${WORST_PUBLISHERS} publishers: share of fetched pages extracted, share with a headline`,
      logGroupNames: [logGroups.fetch.logGroupName],
      queryLines: [
        `filter ispresent(${src}) and ispresent(${pages})`,
        `stats sum(${stored}) * 100 / sum(${pages}) as extracted_pct, sum(${withHeadline}) * 100 / sum(${stored}) as headline_pct, sum(${pages}) as pages by ${src}`,
        "sort extracted_pct asc, headline_pct asc",
        `limit ${WORST_PUBLISHERS}`,
      ],
      view: cloudwatch.LogQueryVisualizationType.TABLE,
      width: 12,
      height: 8,
    }),
    new cloudwatch.LogQueryWidget({
      title: `Worst ${WORST_PUBLISHERS} publishers: % with a valid date, median body words (quality run)`,
      logGroupNames: [logGroups.quality.logGroupName],
      queryLines: [
        `filter ispresent(${src}) and ispresent(${validDateShare})`,
        `stats latest(${validDateShare}) as dated_pct, latest(${medianBodyWords}) as median_words, latest(${articles}) as articles by ${src}`,
        "sort dated_pct asc, median_words asc",
        `limit ${WORST_PUBLISHERS}`,
      ],
      view: cloudwatch.LogQueryVisualizationType.TABLE,
      width: 12,
      height: 8,
    }),
  ];
}

/** A function's own (service-dimensioned) custom metric, summed per day. */
const daily = (service: string, metricName: string, label: string) =>
  new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service },
    statistic: "Sum",
    period: DAY,
    label,
  });

export function buildDashboard(scope: Construct, id: string, inputs: DashboardInputs): cloudwatch.Dashboard {
  const fns = Object.entries(inputs.functions);
  const queues = Object.entries(inputs.queues);
  const dlqs = Object.entries(inputs.deadLetterQueues);
  const dashboard = new cloudwatch.Dashboard(scope, id, {
    defaultInterval: Duration.days(1),
  });
  dashboard.addWidgets(
    new cloudwatch.TextWidget({
      markdown:
        "# storytrail\nDispatch → discover queue → discover → fetch queue → fetch → dedup queue → dedup → Clusters stream. What each alarm means: docs/operations.md.",
      width: 24,
      height: 2,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: "Throughput per stage (messages sent to each queue)",
      left: queues.map(([name, q]) =>
        q.metric("NumberOfMessagesSent", { statistic: "Sum", period: FIVE_MINUTES, label: `into ${name}` }),
      ),
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: "Invocations per function",
      left: fns.map(([name, fn]) => fn.metricInvocations({ period: FIVE_MINUTES, label: name })),
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: "Discovery: sources dispatched, URLs listed and enqueued a day",
      left: [
        daily(metricService.dispatch, dispatchMetrics.dispatched, "sources dispatched"),
        daily(metricService.discover, discoverMetrics.discovered, "discovered"),
        daily(metricService.discover, discoverMetrics.enqueued, "enqueued"),
        daily(metricService.discover, discoverMetrics.sourcesTimedOut, "sources out of time"),
      ],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: "Fetch outcomes a day (article, not_modified, or the failure reason)",
      left: [perDimension(metricService.fetch, OUTCOME_DIMENSION, fetchMetrics.outcomes, "outcome", "Sum")],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: "Stories a day: new, copies joined, merges",
      left: [
        daily(metricService.dedup, dedupMetrics.newStories, "new stories"),
        daily(metricService.dedup, dedupMetrics.joined, "copies joined"),
        daily(metricService.dedup, dedupMetrics.merges, "stories merged"),
      ],
      width: 8,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: "Queue depth",
      left: queues.map(([name, q]) =>
        q.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          statistic: "Maximum",
          label: name,
        }),
      ),
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: "Oldest message age (s)",
      left: queues.map(([name, q]) =>
        q.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: "Maximum", label: name }),
      ),
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: "Dead-letter queues",
      left: dlqs.map(([name, q]) =>
        q.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          statistic: "Maximum",
          label: `${name} DLQ`,
        }),
      ),
      width: 8,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: "Errors and throttles",
      left: fns.map(([name, fn]) => fn.metricErrors({ period: FIVE_MINUTES, label: `${name} errors` })),
      right: fns.map(([name, fn]) =>
        fn.metricThrottles({ period: FIVE_MINUTES, label: `${name} throttles` }),
      ),
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: "Duration p90 (ms)",
      left: fns.map(([name, fn]) =>
        fn.metricDuration({ period: FIVE_MINUTES, statistic: "p90", label: name }),
      ),
      width: 12,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.GraphWidget({
      title: "Articles a day: pages fetched, stored, with a headline (all publishers)",
      left: [
        daily(metricService.fetch, fetchMetrics.pagesHandled, "pages"),
        daily(metricService.fetch, fetchMetrics.articlesStored, "stored"),
        daily(metricService.fetch, fetchMetrics.withHeadline, "with headline"),
      ],
      width: 24,
    }),
  );
  dashboard.addWidgets(...worstPublishers(inputs.logGroups));
  dashboard.addWidgets(
    new cloudwatch.SingleValueWidget({
      title: "Quality drops today: publishers, findings (which: storytrail quality)",
      metrics: [
        new cloudwatch.Metric({
          namespace: METRICS_NAMESPACE,
          metricName: qualityMetrics.publishersWithDrop,
          dimensionsMap: { service: metricService.quality },
          statistic: "Maximum",
          period: DAY,
          label: "publishers",
        }),
        new cloudwatch.Metric({
          namespace: METRICS_NAMESPACE,
          metricName: qualityMetrics.drops,
          dimensionsMap: { service: metricService.quality },
          statistic: "Maximum",
          period: DAY,
          label: "findings",
        }),
      ],
      width: 24,
    }),
  );
  return dashboard;
}
