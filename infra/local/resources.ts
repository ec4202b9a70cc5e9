/** Creates the topology's tables, queues (with DLQs) and bucket on the local emulators. Idempotent. */
import {
  type AttributeDefinition,
  CreateTableCommand,
  type KeySchemaElement,
  ResourceInUseException,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, HeadBucketCommand } from "@aws-sdk/client-s3";
import { CreateQueueCommand, GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import type { AwsClients } from "../../shared/aws/clients";
import {
  type BucketName,
  type KeyAttr,
  type QueueName,
  type ResourceNames,
  type TableName,
  type TableSpec,
  topology,
} from "../topology";

export interface LocalResources extends ResourceNames {
  readonly queueArns: Readonly<Record<QueueName, string>>;
}

export function physicalNames(prefix: string) {
  const queue = (q: QueueName, dlq = false) =>
    `${prefix}${q}${dlq ? "-dlq" : ""}${topology.queues[q].fifo ? ".fifo" : ""}`;
  return {
    table: (t: TableName) => `${prefix}${t}`,
    queue,
    bucket: (b: BucketName) => `${prefix}${b}`.toLowerCase().replace(/[^a-z0-9.-]/g, "-"),
  };
}

/** A table's or an index's key attributes, partition key first. */
function keyAttrs(spec: Pick<TableSpec, "partitionKey" | "sortKey">): KeyAttr[] {
  return [spec.partitionKey, ...(spec.sortKey ? [spec.sortKey] : [])];
}

function keySchema(spec: Pick<TableSpec, "partitionKey" | "sortKey">): KeySchemaElement[] {
  return keyAttrs(spec).map((k, i) => ({ AttributeName: k.name, KeyType: i === 0 ? "HASH" : "RANGE" }));
}

async function createTable(clients: AwsClients, name: string, spec: TableSpec): Promise<void> {
  const indexes = Object.entries(spec.indexes ?? {});
  // Every key attribute of the table and of its indexes, each declared once.
  const types = new Map([spec, ...indexes.map(([, x]) => x)].flatMap(keyAttrs).map((k) => [k.name, k.type]));
  const AttributeDefinitions: AttributeDefinition[] = [...types].map(([AttributeName, AttributeType]) => ({
    AttributeName,
    AttributeType,
  }));
  const GlobalSecondaryIndexes = indexes.map(([IndexName, x]) => ({
    IndexName,
    KeySchema: keySchema(x),
    Projection: { ProjectionType: "INCLUDE" as const, NonKeyAttributes: [...x.include] },
  }));
  try {
    await clients.dynamo.send(
      new CreateTableCommand({
        TableName: name,
        KeySchema: keySchema(spec),
        AttributeDefinitions,
        BillingMode: "PAY_PER_REQUEST",
        ...(GlobalSecondaryIndexes.length > 0 ? { GlobalSecondaryIndexes } : {}),
        ...(spec.stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: spec.stream } } : {}),
      }),
    );
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
  }
  await waitUntilTableExists({ client: clients.dynamo, maxWaitTime: 30 }, { TableName: name });
}

async function createQueue(clients: AwsClients, name: string, fifo: boolean, attrs: Record<string, string>) {
  const out = await clients.sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: { ...attrs, ...(fifo ? { FifoQueue: "true" } : {}) },
    }),
  );
  if (!out.QueueUrl) throw new Error(`CreateQueue ${name} returned no URL`);
  const arn = await clients.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: out.QueueUrl, AttributeNames: ["QueueArn"] }),
  );
  const queueArn = arn.Attributes?.QueueArn;
  if (!queueArn) throw new Error(`queue ${name} has no ARN`);
  return { url: out.QueueUrl, arn: queueArn };
}

export async function createLocalResources(clients: AwsClients, prefix: string): Promise<LocalResources> {
  const names = physicalNames(prefix);
  const tables = {} as Record<TableName, string>;
  for (const [t, spec] of Object.entries(topology.tables) as [TableName, TableSpec][]) {
    tables[t] = names.table(t);
    await createTable(clients, tables[t], spec);
  }
  const queueUrls = {} as Record<QueueName, string>;
  const deadLetterQueueUrls = {} as Record<QueueName, string>;
  const queueArns = {} as Record<QueueName, string>;
  for (const [q, spec] of Object.entries(topology.queues) as [
    QueueName,
    (typeof topology.queues)[QueueName],
  ][]) {
    const retention = String(spec.retentionDays * 86_400);
    const dlq = await createQueue(clients, names.queue(q, true), spec.fifo, {
      MessageRetentionPeriod: String(spec.deadLetterRetentionDays * 86_400),
    });
    const main = await createQueue(clients, names.queue(q), spec.fifo, {
      VisibilityTimeout: String(spec.visibilityTimeoutSeconds),
      MessageRetentionPeriod: retention,
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: spec.maxReceiveCount }),
    });
    queueUrls[q] = main.url;
    deadLetterQueueUrls[q] = dlq.url;
    queueArns[q] = main.arn;
  }
  const buckets = {} as Record<BucketName, string>;
  for (const b of Object.keys(topology.buckets) as BucketName[]) {
    buckets[b] = names.bucket(b);
    try {
      await clients.s3.send(new HeadBucketCommand({ Bucket: buckets[b] }));
    } catch {
      await clients.s3.send(new CreateBucketCommand({ Bucket: buckets[b] }));
    }
  }
  return { tables, queueUrls, deadLetterQueueUrls, queueArns, buckets };
}
