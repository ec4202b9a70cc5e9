/** An alarm on any message waiting in a queue that should stay empty (a DLQ, a failure destination). */
import { Duration } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import type { Construct } from "constructs";

export function anyMessageAlarm(
  scope: Construct,
  id: string,
  queue: sqs.IQueue,
  alarmDescription: string,
): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription,
    metric: queue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: "Maximum",
    }),
    threshold: 0,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}
