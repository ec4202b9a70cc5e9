import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { App, Stack } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as lambda from "aws-cdk-lib/aws-lambda";
import * as sns from "aws-cdk-lib/aws-sns";
import { describe, expect, it } from "vitest";
import { ClusterConsumerExampleStack } from "../../examples/cluster-consumer/stack";
import { ClusterStreamConsumer } from "../../infra/cluster-stream-consumer";

const STREAM_ARN =
  "arn:aws:dynamodb:us-east-1:123456789012:table/Storytrail-ClustersTable/stream/2026-12-01T00:00:00.000";

const TOPIC_ARN = "arn:aws:sns:us-east-1:123456789012:Storytrail-AlarmsTopic";

describe("ClusterStreamConsumer", () => {
  it("synthesizes the example consumer: bisect, partial responses, bounded retries, a failure queue", () => {
    const app = new App({ outdir: mkdtempSync(path.join(tmpdir(), "storytrail-example-")) });
    const stack = new ClusterConsumerExampleStack(app, "Example", {
      clustersTableName: "Storytrail-ClustersTable",
      clustersStreamArn: STREAM_ARN,
      alarmTopicArn: TOPIC_ARN,
    });
    const template = Template.fromStack(stack);
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      EventSourceArn: STREAM_ARN,
      StartingPosition: "TRIM_HORIZON",
      BatchSize: 100,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ["ReportBatchItemFailures"],
      MaximumRecordAgeInSeconds: 86_400,
      MaximumRetryAttempts: 10,
      ParallelizationFactor: 1,
      DestinationConfig: {
        OnFailure: { Destination: { "Fn::GetAtt": [Match.stringLikeRegexp("Failures"), "Arn"] } },
      },
    });
    template.hasResourceProperties("AWS::SQS::Queue", { SqsManagedSseEnabled: true });
    // The failure queue and the iterator age alarm, both notifying the storytrail alarm topic.
    template.resourceCountIs("AWS::CloudWatch::Alarm", 2);
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "IteratorAge",
      Namespace: "AWS/Lambda",
      Threshold: 3_600_000,
      AlarmActions: [TOPIC_ARN],
      OKActions: [TOPIC_ARN],
    });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "ApproximateNumberOfMessagesVisible",
      AlarmActions: [TOPIC_ARN],
    });
    // The function may read the stream and send failed positions to the queue, nothing more.
    const policies = JSON.stringify(template.findResources("AWS::IAM::Policy"));
    expect(policies).toContain("dynamodb:GetRecords");
    expect(policies).toContain("sqs:SendMessage");
    expect(policies).not.toMatch(/dynamodb:(PutItem|UpdateItem|DeleteItem)/);
    // The handler is bundled from the example (esbuild ran during synth).
    template.hasResourceProperties("AWS::Lambda::Function", {
      Runtime: "nodejs24.x",
      Handler: "index.handler",
    });
  });

  it("sends failures to a topic instead when given one", () => {
    const stack = new Stack(new App(), "Topic");
    const table = dynamodb.Table.fromTableAttributes(stack, "T", {
      tableName: "t",
      tableStreamArn: STREAM_ARN,
    });
    const handler = new lambda.Function(stack, "F", {
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: "index.handler",
      code: lambda.Code.fromInline("export const handler = async () => ({ batchItemFailures: [] });"),
    });
    const topic = new sns.Topic(stack, "Failures");
    const c = new ClusterStreamConsumer(stack, "C", { table, handler, onFailure: topic, retryAttempts: 2 });
    expect(c.failureQueue).toBeUndefined();
    Template.fromStack(stack).hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { Ref: Match.stringLikeRegexp("Failures") } } },
    });
  });
});
