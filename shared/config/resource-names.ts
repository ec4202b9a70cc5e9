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
export type QueueName = "fetch" | "dedup";
export type BucketName = "raw";

export const envNames = {
  table: (t: TableName) => `TABLE_${t.toUpperCase()}`,
  queue: (q: QueueName) => `QUEUE_${q.toUpperCase()}_URL`,
  bucket: (b: BucketName) => `BUCKET_${b.toUpperCase()}`,
} as const;
