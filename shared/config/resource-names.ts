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
  datasetDatabase: "DatasetDatabaseName",
  datasetWorkGroup: "DatasetWorkGroupName",
} as const;

/** The archive's tables: Parquet files under `dataset/<table>/dt=YYYY-MM-DD/` (docs/dataset.md). */
export type DatasetTableName = "articles" | "stories" | "revisions";
export const datasetTableNames: readonly DatasetTableName[] = ["articles", "stories", "revisions"];

/** Where the archive lives: in the stack's raw bucket, and under a local run's `DIR/` (the same keys). */
export const datasetKeys = {
  /** Everything the archive writes is under this prefix (its function's object grants, the bucket's rules). */
  root: "dataset/",
  /** A day's Parquet files of one table. */
  day: (t: DatasetTableName, dt: string) => `dataset/${t}/dt=${dt}/`,
  /** The Hive symlink lists Athena reads (it cannot read a manifest): `<prefix>dt=YYYY-MM-DD/symlink.txt`. */
  athenaSymlinks: (t: DatasetTableName) => `dataset/_athena/${t}/`,
  /** A day's manifest: the commit point of its archive run. */
  manifest: (dt: string) => `dataset/_manifests/dt=${dt}.json`,
} as const;

/**
 * The Glue database (lower case, letters, digits and underscores) and the Athena workgroup of a stack:
 * derived from its name, so two stacks in one account keep their own.
 */
export const catalogNames = {
  database: (stackName: string) => `${stackName.toLowerCase().replace(/[^a-z0-9_]/g, "_")}_dataset`,
  workGroup: (stackName: string) => `${stackName}-dataset`,
} as const;

/** Articles by the UTC day they were collected (sort key collected_at): the quality λ reads one day
 * without scanning the table. */
export const ARTICLES_BY_DAY_INDEX = "by_collected_day";

/** Raw HTML samples' keys in the raw bucket (shared/aws/raw-samples.ts); only they expire there: the
 * archive under `dataset/` (shared/archive/layout.ts) is the dataset of record and is kept. */
export const RAW_SAMPLES_PREFIX = "raw/";

/** Prefix of a local run's tables, queues and bucket (`crawl`, `demo`, `import`, and what reads their folder). */
export const LOCAL_PREFIX = "storytrail-";
