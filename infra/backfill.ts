/**
 * The deployed backfill: a Step Functions Distributed Map over a list of WARC objects in S3 (a CC-NEWS
 * month from Common Crawl's public bucket, or the operator's own), one child execution per file. Each
 * child invokes the backfill λ, which streams the file and stops at a checkpoint before its 15 minutes
 * run out; the child invokes it again from that checkpoint until the file is done. Started by
 * `storytrail backfill` (input: { bucket, keys }).
 */
import { Aws, type CfnElement, Duration, Stack, Validations } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import * as tasks from "aws-cdk-lib/aws-stepfunctions-tasks";
import { Construct } from "constructs";
import type { AlarmTopic } from "./alarm-topic";
import type { BackfillSettings } from "./backfill-settings";
import { loggedStateMachine } from "./logged-state-machine";

export interface BackfillMapProps {
  readonly fn: lambda.IFunction;
  /** The function's own role: it gets read access to the WARC bucket's prefix, and nothing more. */
  readonly fnRole: iam.Role;
  readonly settings: BackfillSettings;
  readonly tracing: boolean;
  readonly alarms: AlarmTopic;
}

export class BackfillMap extends Construct {
  readonly stateMachine: sfn.StateMachine;

  constructor(scope: Construct, id: string, props: BackfillMapProps) {
    super(scope, id);
    const { settings } = props;
    const objects = `arn:${Aws.PARTITION}:s3:::${settings.bucket}/${settings.prefix}*`;
    props.fnRole.addToPolicy(new iam.PolicyStatement({ actions: ["s3:GetObject"], resources: [objects] }));
    Validations.of(props.fnRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${settings.bucket}/${settings.prefix}*]`,
      reason:
        "s3:GetObject only, on the WARC files under the configured backfill prefix (deploy settings backfill.bucket/prefix): the files of a run are named at run time.",
    });

    const importFile = new tasks.LambdaInvoke(this, "ImportFile", {
      lambdaFunction: props.fn,
      payloadResponseOnly: true,
      comment: "Streams the file from its checkpoint on; returns the next checkpoint, done or not.",
    });
    // A failed invocation (throttled, a store unavailable, the function timed out) is tried again from
    // the item's last checkpoint: records already stored are stored again unchanged (idempotent puts).
    importFile.addRetry({
      errors: [sfn.Errors.ALL],
      interval: Duration.seconds(10),
      backoffRate: 3,
      maxAttempts: 3,
    });
    const fileDone = new sfn.Choice(this, "FileDone")
      .when(sfn.Condition.booleanEquals("$.done", true), new sfn.Succeed(this, "FileImported"))
      .otherwise(importFile);
    importFile.next(fileDone);

    const files = new sfn.DistributedMap(this, "Files", {
      itemsPath: "$.keys",
      itemSelector: { "bucket.$": "$.bucket", "key.$": "$$.Map.Item.Value" },
      maxConcurrency: settings.max_concurrency,
      toleratedFailurePercentage: settings.tolerated_failure_percentage,
      // Standard child executions: a 1 GB file takes several 15-minute invocations (Express stops at 5).
      mapExecutionType: sfn.StateMachineType.STANDARD,
      // Per-file counts are in the function's log; the run's output would outgrow the state size limit.
      resultPath: sfn.JsonPath.DISCARD,
      label: "Files",
    });
    files.itemProcessor(importFile);

    this.stateMachine = loggedStateMachine(this, {
      comment: "storytrail backfill: WARC files in S3 into articles and story clusters",
      definition: files,
      fn: props.fn,
      what: "backfill",
      tracing: props.tracing,
      alarms: props.alarms,
      alarm: {
        id: "BackfillFailedAlarm",
        description:
          "A backfill run failed: more WARC files failed than backfill.tolerated_failure_percentage allows (see the map run's failed items and the backfill function's log).",
      },
      output: {
        id: "BackfillStateMachineArn",
        description: "storytrail backfill --state-machine <this ARN> --month YYYY-MM",
      },
      moreFindings: childExecutionFindings,
    });
  }
}

/** The Distributed Map's own grants: this state machine's child executions, named at run time. */
function childExecutionFindings(sm: sfn.StateMachine): [string, string][] {
  const executions = `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:{"Fn::Select":[6,{"Fn::Split":[":",{"Ref":"${Stack.of(sm).resolve((sm.node.defaultChild as CfnElement).logicalId)}"}]}]}`;
  return [":*", "/Files:*"].map((suffix) => [
    `${executions}${suffix}`,
    "Describe, stop and redrive this state machine's own (child) executions, whose names are made at run time.",
  ]);
}
