/**
 * A state machine of the stack's (the backfill's, the daily archive's): its execution events logged for a
 * month without execution data (the states carry keys, days and ranges, never article text), X-Ray as the
 * deploy setting says, an alarm when an execution fails, its ARN as an output, and the cdk-nag findings
 * every such machine has acknowledged with their reasons.
 */
import { CfnOutput, Duration, Stack, Validations } from "aws-cdk-lib";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import type { Construct } from "constructs";
import type { AlarmTopic } from "./alarm-topic";
import { arnRef } from "./nag-suppressions";

export interface LoggedStateMachineProps {
  readonly comment: string;
  readonly definition: sfn.IChainable;
  readonly timeout?: Duration;
  /** The one function its tasks invoke (named in the findings' reasons as `what`'s). */
  readonly fn: lambda.IFunction;
  readonly what: string;
  readonly tracing: boolean;
  readonly alarms: AlarmTopic;
  readonly alarm: { readonly id: string; readonly description: string };
  readonly output: { readonly id: string; readonly description: string };
  /** Further IAM5 findings, [resource, reason], that need the machine (a Distributed Map's child executions). */
  readonly moreFindings?: (sm: sfn.StateMachine) => [string, string][];
}

/** Builds it in `scope`, with the ids "Logs" and "StateMachine" there. */
export function loggedStateMachine(scope: Construct, props: LoggedStateMachineProps): sfn.StateMachine {
  const logGroup = new logs.LogGroup(scope, "Logs", { retention: logs.RetentionDays.ONE_MONTH });
  const sm = new sfn.StateMachine(scope, "StateMachine", {
    comment: props.comment,
    definitionBody: sfn.DefinitionBody.fromChainable(props.definition),
    ...(props.timeout ? { timeout: props.timeout } : {}),
    logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    tracingEnabled: props.tracing,
  });
  if (!props.tracing)
    Validations.of(sm).acknowledge({
      id: "AwsSolutions-SF2",
      reason:
        "X-Ray follows the deploy setting `tracing`, off by default like the functions' (no handler has a tracer).",
    });
  const findings: [string, string][] = [
    [
      `${arnRef(props.fn)}:*`,
      `LambdaInvoke's grant adds the qualified ARN (versions and aliases) of the one ${props.what} function.`,
    ],
    [
      "*",
      "CloudWatch Logs delivery for the state machine's log group (logs:*LogDelivery, DescribeLogGroups, resource policies) takes no resource-level permission; and X-Ray's actions when tracing is on.",
    ],
    ...(props.moreFindings?.(sm) ?? []),
  ];
  for (const [resource, reason] of findings)
    Validations.of(sm).acknowledge({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason });
  props.alarms.alarm(scope, props.alarm.id, {
    description: props.alarm.description,
    metric: sm.metricFailed({ period: Duration.minutes(5), statistic: "Sum" }),
    above: 0,
  });
  new CfnOutput(Stack.of(scope), props.output.id, {
    value: sm.stateMachineArn,
    description: props.output.description,
  });
  return sm;
}
