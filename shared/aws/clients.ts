/**
 * The full set of AWS SDK v3 clients, for the local runtime, the CLI and tests. In Lambda they use the
 * defaults; locally only the endpoints differ. A Lambda function makes only the clients it uses
 * (dynamo-clients.ts, sqs-client.ts; s3-client.ts loads S3 on first use), so it never loads the others.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import { S3Client } from "@aws-sdk/client-s3";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { announceClients, defaultRegion, type Endpoints, s3Config, serviceConfig } from "./client-config";
import { makeDynamoClients } from "./dynamo-clients";
import { makeSqsClient } from "./sqs-client";

export {
  ENDPOINT_ENV,
  type Endpoints,
  observeClients,
} from "./client-config";

export interface AwsClients {
  readonly dynamo: DynamoDBClient;
  readonly doc: DynamoDBDocumentClient;
  readonly sqs: SQSClient;
  readonly s3: S3Client;
  readonly streams: DynamoDBStreamsClient;
}

export function makeClients(endpoints: Endpoints = {}, region = defaultRegion()): AwsClients {
  const s3 = new S3Client(s3Config(endpoints, region));
  const streams = new DynamoDBStreamsClient({ ...serviceConfig(endpoints.dynamodb, region) });
  announceClients({ s3, streams });
  return { ...makeDynamoClients(endpoints, region), sqs: makeSqsClient(endpoints, region), s3, streams };
}

export function destroyClients(c: AwsClients): void {
  c.dynamo.destroy();
  c.sqs.destroy();
  c.s3.destroy();
  c.streams.destroy();
}
