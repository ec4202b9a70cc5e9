/**
 * The one way the stack and its constructs make an alarm: above a threshold for some periods, missing
 * data not breaching, and (given an action) notifying when it fires and when it clears.
 */
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import type { Construct } from "constructs";

export interface AlarmSpec {
  readonly description: string;
  readonly metric: cloudwatch.IMetric;
  /** Alarms when the metric is strictly above this. */
  readonly above: number;
  /** Consecutive periods above before it alarms (default 1). */
  readonly periods?: number;
}

export function thresholdAlarm(
  scope: Construct,
  id: string,
  spec: AlarmSpec,
  action?: cloudwatch.IAlarmAction,
): cloudwatch.Alarm {
  const alarm = new cloudwatch.Alarm(scope, id, {
    alarmDescription: spec.description,
    metric: spec.metric,
    threshold: spec.above,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: spec.periods ?? 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  if (action) {
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
  return alarm;
}
