/** AWS SDK v3 clients. In Lambda they use the defaults; locally only the endpoints differ. */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import { S3Client } from "@aws-sdk/client-s3";
import { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

export interface Endpoints {
  readonly dynamodb?: string;
  readonly sqs?: string;
  readonly s3?: string;
}

export interface AwsClients {
  readonly dynamo: DynamoDBClient;
  readonly doc: DynamoDBDocumentClient;
  readonly sqs: SQSClient;
  readonly s3: S3Client;
  readonly streams: DynamoDBStreamsClient;
}

/** Env variables that point the clients at local emulators (set only by the local runtime and tests). */
export const ENDPOINT_ENV = {
  dynamodb: "STORYTRAIL_ENDPOINT_DYNAMODB",
  sqs: "STORYTRAIL_ENDPOINT_SQS",
  s3: "STORYTRAIL_ENDPOINT_S3",
} as const;

export function endpointsFromEnv(env: Readonly<Record<string, string | undefined>>): Endpoints {
  return {
    dynamodb: env[ENDPOINT_ENV.dynamodb],
    sqs: env[ENDPOINT_ENV.sqs],
    s3: env[ENDPOINT_ENV.s3],
  };
}

const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" };

const observers = new Set<(c: AwsClients) => void>();

/**
 * Calls `hook` with every client set makeClients creates from now on (the benchmarks attach a
 * request meter this way); returns the function that unregisters it. Nothing changes without a hook.
 */
export function observeClients(hook: (c: AwsClients) => void): () => void {
  observers.add(hook);
  return () => observers.delete(hook);
}

export function makeClients(
  endpoints: Endpoints = {},
  region = process.env.AWS_REGION ?? "us-east-1",
): AwsClients {
  const local = (endpoint: string | undefined) =>
    endpoint ? { endpoint, region, credentials: LOCAL_CREDENTIALS } : { region };
  const dynamo = new DynamoDBClient({ ...local(endpoints.dynamodb), maxAttempts: 5 });
  const clients: AwsClients = {
    dynamo,
    doc: DynamoDBDocumentClient.from(dynamo, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    }),
    // Emulators hand out queue URLs whose host is not the endpoint: send to the endpoint.
    sqs: new SQSClient({ ...local(endpoints.sqs), useQueueUrlAsEndpoint: !endpoints.sqs }),
    s3: new S3Client({ ...local(endpoints.s3), forcePathStyle: Boolean(endpoints.s3) }),
    streams: new DynamoDBStreamsClient({ ...local(endpoints.dynamodb) }),
  };
  for (const hook of observers) hook(clients);
  return clients;
}

export function destroyClients(c: AwsClients): void {
  c.dynamo.destroy();
  c.sqs.destroy();
  c.s3.destroy();
  c.streams.destroy();
}
