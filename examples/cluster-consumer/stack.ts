/**
 * The example consumer's stack: one function on the Clusters stream through ClusterStreamConsumer.
 * It takes the stream from StorytrailStack's outputs, so it deploys on its own
 * (`npx cdk deploy --app "npx tsx examples/cluster-consumer/app.ts"`).
 */
import path from "node:path";
import { Duration, Stack, type StackProps } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import * as sns from "aws-cdk-lib/aws-sns";
import type { Construct } from "constructs";
import { ClusterStreamConsumer } from "../../infra/cluster-stream-consumer";

export interface ClusterConsumerExampleProps extends StackProps {
  /** StorytrailStack's ClustersTableName and ClustersStreamArn outputs. */
  readonly clustersTableName: string;
  readonly clustersStreamArn: string;
  /** StorytrailStack's AlarmTopicArn output: the consumer's alarms reach the same people. */
  readonly alarmTopicArn?: string;
}

export class ClusterConsumerExampleStack extends Stack {
  readonly consumer: ClusterStreamConsumer;

  constructor(scope: Construct, id: string, props: ClusterConsumerExampleProps) {
    super(scope, id, props);
    const table = dynamodb.Table.fromTableAttributes(this, "Clusters", {
      tableName: props.clustersTableName,
      tableStreamArn: props.clustersStreamArn,
    });
    const root = path.resolve(import.meta.dirname, "../..");
    const handler = new NodejsFunction(this, "Handler", {
      entry: path.join(import.meta.dirname, "handler.ts"),
      projectRoot: root,
      depsLockFilePath: path.join(root, "package-lock.json"),
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 256,
      timeout: Duration.seconds(30),
      bundling: { format: OutputFormat.ESM, minify: true, sourceMap: true, forceDockerBundling: false },
    });
    const alarmTopic = props.alarmTopicArn
      ? sns.Topic.fromTopicArn(this, "AlarmTopic", props.alarmTopicArn)
      : undefined;
    this.consumer = new ClusterStreamConsumer(this, "ClusterStream", { table, handler, alarmTopic });
  }
}
