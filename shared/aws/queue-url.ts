/** A queue's URL from its name (names are derived from the topology; URLs differ between AWS and emulators). */
import { GetQueueUrlCommand, type SQSClient } from "@aws-sdk/client-sqs";

export async function queueUrlByName(sqs: SQSClient, name: string): Promise<string> {
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: name }));
  if (!QueueUrl) throw new Error(`no queue named ${name}`);
  return QueueUrl;
}
