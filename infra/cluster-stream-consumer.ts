/**
 * ClusterStreamConsumer: a consumer's function attached to the Clusters table's stream the way a
 * stream consumer should be, in one construct:
 *
 * - partial batch responses (ReportBatchItemFailures): the handler names the first failed record and
 *   Lambda retries from there, so records before it are not delivered again;
 * - bisect on error: a batch that throws is split in halves until the poison record is alone;
 * - a bounded retry (attempts and record age), after which the record's stream position goes to a
 *   failure destination (an SQS queue by default, or the SNS topic given), with an alarm on it;
 * - TRIM_HORIZON start, so a new consumer sees what the stream still holds (24 hours).
 *
 * A stream has at most two concurrent readers per shard before reads are throttled: this construct
 * is one reader. For more consumers, fan out through one reader (EventBridge Pipes to an event bus,
 * or Kinesis Data Streams for DynamoDB) instead of attaching a third function (README).
 */
import { Duration } from "aws-cdk-lib";
import type * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource, SnsDlq, SqsDlq } from "aws-cdk-lib/aws-lambda-event-sources";
import type * as sns from "aws-cdk-lib/aws-sns";
import * as sqs from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { thresholdAlarm } from "./threshold-alarm";

export interface ClusterStreamConsumerProps {
  /** The Clusters table (StorytrailStack's `tables.clusters`, or `Table.fromTableAttributes` with the
   * stack's `ClustersStreamArn` output as `tableStreamArn`). */
  readonly table: dynamodb.ITable;
  readonly handler: lambda.IFunction;
  /** Records per invocation (default 100). */
  readonly batchSize?: number;
  /** How long Lambda gathers records before invoking (default none). */
  readonly maxBatchingWindow?: Duration;
  /** Records older than this go to the failure destination unprocessed (default 1 day, the stream's
   * retention: a consumer that stalls longer has lost records anyway). */
  readonly maxRecordAge?: Duration;
  /** Retries of a failing batch before its records go to the failure destination (default 10). */
  readonly retryAttempts?: number;
  /** Concurrent batches per shard (default 1; more breaks the per-item order the view relies on
   * only for members, which the reference view does not need). */
  readonly parallelizationFactor?: number;
  /** Where failed records' positions go: a topic, or a queue (default: a new encrypted queue). */
  readonly onFailure?: sqs.IQueue | sns.ITopic;
  /** Who the consumer's alarms notify (when they fire and clear): e.g. the storytrail stack's AlarmTopic. */
  readonly alarmTopic?: sns.ITopic;
  /** The consumer's oldest unread record older than this alarms: it has fallen behind (default 1 h). */
  readonly iteratorAgeAlarm?: Duration;
}

function isTopic(d: sqs.IQueue | sns.ITopic): d is sns.ITopic {
  return "topicArn" in d;
}

export class ClusterStreamConsumer extends Construct {
  /** The failure queue (when no topic was given). */
  readonly failureQueue?: sqs.IQueue;
  /** Alarms when anything reaches the failure queue (notifies `alarmTopic` when given). */
  readonly failureAlarm?: cloudwatch.Alarm;
  /** Alarms when the consumer falls behind the stream (IteratorAge past `iteratorAgeAlarm`). */
  readonly iteratorAgeAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: ClusterStreamConsumerProps) {
    super(scope, id);
    const action = props.alarmTopic ? new SnsAction(props.alarmTopic) : undefined;
    let destination = props.onFailure;
    if (!destination) {
      const queue = new sqs.Queue(this, "Failures", {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      this.failureQueue = queue;
      this.failureAlarm = thresholdAlarm(
        this,
        "FailuresAlarm",
        {
          description:
            "Clusters stream records the consumer could not process (their stream positions are in the queue).",
          metric: queue.metricApproximateNumberOfMessagesVisible({
            period: Duration.minutes(5),
            statistic: "Maximum",
          }),
          above: 0,
        },
        action,
      );
      destination = queue;
    }
    props.handler.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: props.batchSize ?? 100,
        maxBatchingWindow: props.maxBatchingWindow,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        maxRecordAge: props.maxRecordAge ?? Duration.days(1),
        retryAttempts: props.retryAttempts ?? 10,
        parallelizationFactor: props.parallelizationFactor ?? 1,
        onFailure: isTopic(destination) ? new SnsDlq(destination) : new SqsDlq(destination),
      }),
    );
    // Records older than maxRecordAge are dropped to the failure destination: alarm well before that.
    const maxAge = props.iteratorAgeAlarm ?? Duration.hours(1);
    this.iteratorAgeAlarm = thresholdAlarm(
      this,
      "IteratorAgeAlarm",
      {
        description: `The Clusters stream consumer is more than ${maxAge.toHumanString()} behind the stream.`,
        metric: props.handler.metric("IteratorAge", { statistic: "Maximum", period: Duration.minutes(5) }),
        above: maxAge.toMilliseconds(),
        periods: 3,
      },
      action,
    );
  }
}
