/**
 * What every AWS client is built from: the region, and the endpoints of local emulators (set only by
 * the local runtime and tests). Holds no SDK import, so a function loads only the clients it uses.
 */
import type { AwsClients } from "./clients";

export interface Endpoints {
  readonly dynamodb?: string;
  readonly sqs?: string;
  readonly s3?: string;
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

/** The region of `env` (Lambda sets AWS_REGION), else us-east-1 for local runs. */
export function defaultRegion(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.AWS_REGION ?? "us-east-1";
}

const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" };

/** In Lambda the SDK defaults apply; an emulator gets its endpoint and dummy credentials. */
export function serviceConfig(endpoint: string | undefined, region: string) {
  return endpoint ? { endpoint, region, credentials: LOCAL_CREDENTIALS } : { region };
}

/** Emulators serve buckets by path, not by host name. */
export function s3Config(endpoints: Endpoints, region: string) {
  return { ...serviceConfig(endpoints.s3, region), forcePathStyle: Boolean(endpoints.s3) };
}

const observers = new Set<(c: Partial<AwsClients>) => void>();

/**
 * Calls `hook` with every client makeClients or a per-service maker creates from now on (the
 * benchmarks attach a request meter this way), one service's clients at a time; returns the function
 * that unregisters it. Nothing changes without a hook.
 */
export function observeClients(hook: (c: Partial<AwsClients>) => void): () => void {
  observers.add(hook);
  return () => observers.delete(hook);
}

/** Tells the observers about newly made clients. */
export function announceClients(c: Partial<AwsClients>): void {
  for (const hook of observers) hook(c);
}
