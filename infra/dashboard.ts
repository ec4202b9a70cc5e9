/**
 * The ops dashboard: one page that tells the day's story, stage by stage. Built from the stack's
 * queues and functions (the topology) and the custom metrics declared in shared/config/metrics.ts.
 */
import { Duration } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import type { Construct } from "constructs";
import { METRICS_NAMESPACE, metricService, qualityMetrics, SOURCE_DIMENSION } from "../shared/config/metrics";

export interface DashboardInputs {
  readonly queues: Readonly<Record<string, sqs.IQueue>>;
  readonly deadLetterQueues: Readonly<Record<string, sqs.IQueue>>;
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
}

const FIVE_MINUTES = Duration.minutes(5);
const DAY = Duration.days(1);

/** One line per source for a per-publisher quality metric (CloudWatch SEARCH over the source dimension). */
function perPublisher(metricName: string, label: string): cloudwatch.MathExpression {
  return new cloudwatch.MathExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},service,${SOURCE_DIMENSION}} MetricName="${metricName}" service="${metricService.quality}"', 'Average', 86400)`,
    label,
    period: DAY,
  });
}

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
        "# storytrail\nDiscover → fetch queue → fetch → dedup queue → dedup → Clusters stream. What each alarm means: docs/operations.md.",
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
      title: "Per publisher: articles a day",
      left: [perPublisher(qualityMetrics.articles, "articles")],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: "Per publisher: median body words",
      left: [perPublisher(qualityMetrics.medianBodyWords, "median words")],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: "Per publisher: % with a valid date",
      left: [perPublisher(qualityMetrics.validDateShare, "dated %")],
      width: 8,
    }),
  );
  dashboard.addWidgets(
    new cloudwatch.SingleValueWidget({
      title: "Quality drops today",
      metrics: [
        new cloudwatch.Metric({
          namespace: METRICS_NAMESPACE,
          metricName: qualityMetrics.drops,
          dimensionsMap: { service: metricService.quality },
          statistic: "Maximum",
          period: DAY,
        }),
      ],
      width: 24,
    }),
  );
  return dashboard;
}
