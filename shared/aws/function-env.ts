/** Reads a function's resource names (set from the topology) and endpoints from its environment. */
import { type BucketName, envNames, type QueueName, type TableName } from "../config/resource-names";
import { defaultRegion, type Endpoints, endpointsFromEnv } from "./client-config";

export type Env = Readonly<Record<string, string | undefined>>;

function required(env: Env, name: string): string {
  const v = env[name];
  if (!v) throw new Error(`environment variable ${name} is not set (see infra/topology.ts)`);
  return v;
}

export const resource = {
  table: (env: Env, t: TableName) => required(env, envNames.table(t)),
  queueUrl: (env: Env, q: QueueName) => required(env, envNames.queue(q)),
  deadLetterQueueUrl: (env: Env, q: QueueName) => required(env, envNames.deadLetterQueue(q)),
  bucket: (env: Env, b: BucketName) => required(env, envNames.bucket(b)),
};

/**
 * Where the function's clients point; a function makes only the ones it uses
 * (makeDynamoClients, makeSqsClient, loadS3Client), so it never loads the other SDK clients.
 */
export function awsTarget(env: Env): { endpoints: Endpoints; region: string } {
  return { endpoints: endpointsFromEnv(env), region: defaultRegion(env) };
}
