/** CDK app of the example consumer: the Clusters stream comes from a deployed StorytrailStack's exports. */
import { App, Fn } from "aws-cdk-lib";
import { ClusterConsumerExampleStack } from "./stack";

const app = new App();
const storytrail = app.node.tryGetContext("storytrailStack") ?? "Storytrail";
new ClusterConsumerExampleStack(app, "StorytrailClusterConsumerExample", {
  clustersTableName: Fn.importValue(`${storytrail}-ClustersTableName`),
  clustersStreamArn: Fn.importValue(`${storytrail}-ClustersStreamArn`),
  alarmTopicArn: Fn.importValue(`${storytrail}-AlarmTopicArn`),
});
