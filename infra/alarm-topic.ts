/**
 * Where every alarm goes: one SNS topic (KMS-encrypted, TLS-only) with the deploy settings'
 * subscribers. Each alarm the stack makes goes through `alarm()`, which wires the topic as its
 * alarm and OK action, so no alarm can be left notifying no one.
 */
import { CfnOutput, Duration, Stack } from "aws-cdk-lib";
import type * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import { Construct } from "constructs";
import type { OpsOptions } from "./deploy-settings";
import { type AlarmSpec, thresholdAlarm } from "./threshold-alarm";

export class AlarmTopic extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  private readonly action: SnsAction;

  constructor(
    scope: Construct,
    id: string,
    options: Pick<OpsOptions, "alarm_emails" | "alarm_https_endpoints">,
  ) {
    super(scope, id);
    const key = new kms.Key(this, "Key", {
      description: "storytrail alarm topic",
      enableKeyRotation: true,
      pendingWindow: Duration.days(7),
    });
    // CloudWatch publishes to the topic, so it must be able to use the topic's key.
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal("cloudwatch.amazonaws.com")],
        actions: ["kms:Decrypt", "kms:GenerateDataKey*"],
        resources: ["*"],
      }),
    );
    this.topic = new sns.Topic(this, "Topic", {
      displayName: "storytrail alarms",
      masterKey: key,
      enforceSSL: true,
    });
    for (const email of options.alarm_emails)
      this.topic.addSubscription(new subscriptions.EmailSubscription(email));
    for (const url of options.alarm_https_endpoints)
      this.topic.addSubscription(
        new subscriptions.UrlSubscription(url, { protocol: sns.SubscriptionProtocol.HTTPS }),
      );
    this.action = new SnsAction(this.topic);
    new CfnOutput(scope, "AlarmTopicArn", {
      value: this.topic.topicArn,
      // Consumers' stacks (ClusterStreamConsumer's alarmTopic) import it by this name.
      exportName: `${Stack.of(scope).stackName}-AlarmTopicArn`,
      description:
        "Every storytrail alarm notifies this topic: subscribe a person, AWS Chatbot or an incident tool.",
    });
  }

  /** An alarm that notifies the topic when it fires and when it clears. Missing data is not breaching. */
  alarm(scope: Construct, id: string, spec: AlarmSpec): cloudwatch.Alarm {
    const alarm = thresholdAlarm(scope, id, spec, this.action);
    this.alarms.push(alarm);
    return alarm;
  }
}
