/** Reads a function's resource names (set from the topology) and endpoints from its environment. */
import { type BucketName, envNames, type QueueName, type TableName } from "../config/resource-names";
import { type AwsClients, endpointsFromEnv, makeClients } from "./clients";

export type Env = Readonly<Record<string, string | undefined>>;

function required(env: Env, name: string): string {
  const v = env[name];
  if (!v) throw new Error(`environment variable ${name} is not set (see infra/topology.ts)`);
  return v;
}

export const resource = {
  table: (env: Env, t: TableName) => required(env, envNames.table(t)),
  queueUrl: (env: Env, q: QueueName) => required(env, envNames.queue(q)),
  bucket: (env: Env, b: BucketName) => required(env, envNames.bucket(b)),
};

export function clientsFromEnv(env: Env): AwsClients {
  return makeClients(endpointsFromEnv(env), env.AWS_REGION ?? "us-east-1");
}
