/**
 * The logical resources and the environment variables that carry their physical names to a function.
 * infra/topology.ts declares the resources; adapters read the variables. Declared here so that the
 * domain side never imports infra/.
 */
export type TableName =
  | "articles"
  | "frontier"
  | "sources"
  | "hosts"
  | "fingerprints"
  | "buckets"
  | "clusters";
export type QueueName = "discover" | "fetch" | "dedup";
export type BucketName = "raw";

export const envNames = {
  table: (t: TableName) => `TABLE_${t.toUpperCase()}`,
  queue: (q: QueueName) => `QUEUE_${q.toUpperCase()}_URL`,
  deadLetterQueue: (q: QueueName) => `QUEUE_${q.toUpperCase()}_DLQ_URL`,
  bucket: (b: BucketName) => `BUCKET_${b.toUpperCase()}`,
} as const;

const pascal = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);

/** The stack's CloudFormation outputs that name a resource: the CLI finds a deployed table by them. */
export const outputNames = {
  table: (t: TableName) => `${pascal(t)}TableName`,
} as const;

/** Articles by the UTC day they were collected (sort key collected_at): the quality λ reads one day
 * without scanning the table. */
export const ARTICLES_BY_DAY_INDEX = "by_collected_day";

/** Raw HTML samples' keys in the raw bucket (shared/aws/raw-samples.ts); only they expire there: the
 * archive under `dataset/` (shared/archive/layout.ts) is the dataset of record and is kept. */
export const RAW_SAMPLES_PREFIX = "raw/";
