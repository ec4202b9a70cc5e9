/**
 * The system, declared once as plain data: tables, queues, the raw-sample bucket, the functions and
 * their triggers and access. infra/stack.ts turns it into CloudFormation; infra/local/runtime.ts turns
 * it into resources on local emulators and drives the same handlers. Nothing else names a resource.
 */
import { ARCHIVE_RUN_SECONDS } from "../shared/archive/archive-steps";
import { ARCHIVE_PREFIX } from "../shared/archive/layout";
import {
  type BucketName,
  envNames,
  type QueueName,
  RAW_SAMPLES_PREFIX,
  type TableName,
} from "../shared/config/resource-names";
import { DISPATCH_TICK_MINUTES } from "../shared/discover/cadence";
import { measuredMemoryMb } from "./memory-sizing";
import { type KeyAttr, type TableSpec, tables } from "./topology-tables";

export type { BucketName, KeyAttr, QueueName, TableName, TableSpec };

export interface QueueSpec {
  readonly fifo: boolean;
  readonly visibilityTimeoutSeconds: number;
  /** Receives after which a message moves to the queue's dead-letter queue. */
  readonly maxReceiveCount: number;
  readonly retentionDays: number;
  /** How long a message waits in the queue's dead-letter queue for a fix and a redrive. */
  readonly deadLetterRetentionDays: number;
  /** The oldest message waiting longer than this alarms: the stage has stalled or fallen behind. */
  readonly alarmAgeSeconds: number;
  readonly description: string;
}

export interface BucketSpec {
  /** Objects under `expirePrefix` expire after the given number of days; others are kept. */
  readonly expireAfterDays: number;
  readonly expirePrefix: string;
  readonly description: string;
}

export type FunctionName = "dispatch" | "discover" | "fetch" | "dedup" | "quality" | "backfill" | "archive";

export type Trigger =
  | {
      readonly kind: "schedule";
      readonly cron: string;
      readonly description: string;
      /** The schedule's input carries its scheduled time and the default source cadence (the dispatcher). */
      readonly tick?: true;
      /** The schedule starts a state machine of the function's steps instead of invoking it once (the
       * archive's day in shards: infra/archive-steps.ts builds it; a local run runs the same steps in
       * sequence in one process, infra/local/archive-run.ts). */
      readonly steps?: StepsSpec;
    }
  | {
      readonly kind: "queue";
      readonly queue: QueueName;
      readonly batchSize: number;
      readonly maxConcurrency: number;
    }
  /** One invocation per WARC file (and per resumed part of it), from a Step Functions Distributed Map
   * (infra/backfill.ts); concurrency and failure tolerance are deploy settings. */
  | { readonly kind: "distributed-map"; readonly description: string };

export interface StepsSpec {
  /** The whole run's limit, which is also how long it holds a day's lease. */
  readonly timeoutSeconds: number;
  /** Shards written (or marked) at once: the Map's MaxConcurrency. */
  readonly shardConcurrency: number;
}

export interface FunctionAccess {
  readonly tables: Partial<Record<TableName, "read" | "readwrite">>;
  readonly queues: Partial<Record<QueueName, "send">>;
  /** Dead-letter queues the function parks messages in itself, after giving up on them. */
  readonly deadLetterQueues?: Partial<Record<QueueName, "send">>;
  readonly buckets: Partial<Record<BucketName, "read" | "write" | "readwrite">>;
  /** Limits the object access to keys under `prefix` (the function's own part of the bucket), and adds
   * deletes there; without it, the access covers every key. */
  readonly objects?: { readonly prefix: string; readonly delete: boolean };
}

export interface FunctionSpec {
  /** Path from the repo root to the handler module; it exports `handler`. */
  readonly entry: string;
  readonly memoryMb: number;
  readonly timeoutSeconds: number;
  readonly trigger: Trigger;
  readonly access: FunctionAccess;
  readonly description: string;
}

export interface Topology {
  readonly tables: Readonly<Record<TableName, TableSpec>>;
  readonly queues: Readonly<Record<QueueName, QueueSpec>>;
  readonly buckets: Readonly<Record<BucketName, BucketSpec>>;
  readonly functions: Readonly<Record<FunctionName, FunctionSpec>>;
}

/**
 * Fetch messages per invocation: the event source's most for a standard queue without a batching
 * window. A batch holds pages of many hosts (a standard queue has no groups: a FIFO queue filled a batch
 * from one host's backlog, whose pages then had to wait for each other in the function); each due host's
 * page is fetched, the others go back to the queue until their slot (lambdas/fetch.ts).
 */
const FETCH_BATCH_SIZE = 10;
// At most one request-chain per host per batch, 3 hosts at once: 4 rounds of a page's 30 s fetch deadline
// (robots.txt and redirect hops in it), with margin.
const FETCH_TIMEOUT_SECONDS = 4 * 60 + 30;
const DEDUP_TIMEOUT_SECONDS = 60;
const DISCOVER_TIMEOUT_SECONDS = 600;
/**
 * Discover messages (one source each) per invocation: the sources discovery worked at once before it
 * was fanned out (SOURCE_CONCURRENCY), whose memory was measured (445 MB at the sitemap caps).
 */
const DISCOVER_BATCH_SIZE = 4;
/**
 * Discover invocations at once. 10,000 daily sources are 2,500 batches; a source's discovery takes
 * ~10-60 s (robots.txt, a sitemap index and its children at the 1 s host pace), so 50 invocations (200
 * sources at once) read the day's list in ~10-50 min, well inside the fetch queue's 12 h, while taking
 * 50 of the account's default 1,000 concurrent executions and at most ~200 Frontier claims in flight
 * per source batch (16 each).
 */
const DISCOVER_MAX_CONCURRENCY = 50;
/** SQS's longest retention: a dead letter waits as long as it can for its fix and redrive. */
const DEAD_LETTER_RETENTION_DAYS = 14;
// Lambda's maximum. A CC-NEWS file (~1 GB, ~30,000 pages) takes longer at ~40 pages/s: the function stops
// at a checkpoint before its time runs out and the state machine invokes it again from there.
const BACKFILL_TIMEOUT_SECONDS = 900;

export const topology: Topology = {
  tables,
  queues: {
    discover: {
      fifo: false,
      // Lambda's advice for an SQS trigger: six times the function's timeout.
      visibilityTimeoutSeconds: DISCOVER_TIMEOUT_SECONDS * 6,
      // A source whose discovery throws (a DynamoDB or SQS error, not a publisher's: those are recorded
      // as problems) is tried three times, then parked in the DLQ for a look.
      maxReceiveCount: 3,
      retentionDays: 1,
      deadLetterRetentionDays: DEAD_LETTER_RETENTION_DAYS,
      // The daily burst of 10,000 sources drains in under an hour at the consumer's concurrency; a
      // source still waiting after 2 h means discovery is failing or throttled.
      alarmAgeSeconds: 2 * 3600,
      description: "Sources due now, one per message, from the dispatcher to discovery.",
    },
    fetch: {
      // Standard: the Hosts table alone paces a host (shared/aws/host-pace-table.ts). A FIFO group per host
      // (before 2026-12-05) filled a batch with one backlogged host's pages, which then waited for each
      // other's host delay in the function, billed; now a page not due waits in the queue.
      fifo: false,
      visibilityTimeoutSeconds: FETCH_TIMEOUT_SECONDS * 6,
      // A backstop only: fetch gives up on a URL after 3 attempts itself and parks it in the DLQ
      // (shared/crawl/fetch-attempt.ts). A page put back until its host's slot counts a receive too: about
      // one put-back per page of a backlogged host, so 20 leave room for a few re-reservations per attempt.
      maxReceiveCount: 20,
      retentionDays: 4,
      deadLetterRetentionDays: DEAD_LETTER_RETENTION_DAYS,
      // A daily crawl drains within hours even at 1 s per host (a 5,000-URL host: 1.4 h); a URL still
      // waiting after 12 h will meet the next day's crawl: a stalled host or a failing function.
      alarmAgeSeconds: 12 * 3600,
      description: "Canonical URLs to fetch; a page whose host is not due waits here until its slot.",
    },
    dedup: {
      fifo: false,
      visibilityTimeoutSeconds: DEDUP_TIMEOUT_SECONDS * 6,
      maxReceiveCount: 5,
      retentionDays: 4,
      deadLetterRetentionDays: DEAD_LETTER_RETENTION_DAYS,
      // Dedup has no pacing: an article waits seconds unless dedup is failing or throttled.
      alarmAgeSeconds: 3600,
      description: "Fetched articles with their MinHash fingerprint, to cluster.",
    },
  },
  buckets: {
    raw: {
      expireAfterDays: 180,
      expirePrefix: RAW_SAMPLES_PREFIX,
      description: `Gzip raw HTML samples (${RAW_SAMPLES_PREFIX}, expiring), for re-running extraction; the archive (${ARCHIVE_PREFIX}, kept).`,
    },
  },
  functions: {
    dispatch: {
      entry: "lambdas/dispatch.ts",
      // One scan of the Sources table's configs in memory (~0.3 KB each: 30 MB at 100,000 sources; a
      // local 100,000-source push and dispatch peaked at 384 MB RSS for the whole process).
      memoryMb: 512,
      // 10,000 due sources are 1,000 SendMessageBatch calls, 8 in flight (~3 s); the scan of 100,000
      // sources and their 10,000 calls fit too (~3 min on the local emulators).
      timeoutSeconds: 300,
      trigger: {
        kind: "schedule",
        // The tick (DISPATCH_TICK_MINUTES, shared/discover/cadence.ts): every source's cadence is
        // evaluated against it, so the stack has this one schedule whatever the sources name.
        cron: `cron(0/${DISPATCH_TICK_MINUTES} * * * ? *)`,
        description: `Every ${DISPATCH_TICK_MINUTES} minutes: discover the sources due`,
        tick: true,
      },
      access: { tables: { sources: "read" }, queues: { discover: "send" }, buckets: {} },
      description: "Reads the sources due now from the Sources table; one discover message per source.",
    },
    discover: {
      entry: "lambdas/discover.ts",
      // Measured: 4 sources at once at the sitemap caps peak at 445 MB (infra/memory-sizing.ts).
      memoryMb: measuredMemoryMb("discover"),
      timeoutSeconds: DISCOVER_TIMEOUT_SECONDS,
      trigger: {
        kind: "queue",
        queue: "discover",
        batchSize: DISCOVER_BATCH_SIZE,
        maxConcurrency: DISCOVER_MAX_CONCURRENCY,
      },
      access: {
        // hosts: discovery's requests keep the pace fetch keeps (shared/fetch/request-pacing.ts).
        tables: { frontier: "readwrite", sources: "readwrite", hosts: "readwrite" },
        queues: { fetch: "send" },
        buckets: {},
      },
      description: "Reads robots.txt, sitemaps and feeds per source; enqueues new canonical URLs.",
    },
    fetch: {
      entry: "lambdas/fetch.ts",
      // Fetch mostly waits (network, host pacing), and Lambda bills the wait by memory, so it gets what
      // its worst case needs and no more: 3 hosts' worst pages at the 5 MiB cap at once ≈ 250 MB with the
      // handler loaded → 275 MB (infra/memory-sizing.ts).
      memoryMb: measuredMemoryMb("fetch"),
      timeoutSeconds: FETCH_TIMEOUT_SECONDS,
      // Batches of up to 10 (one invocation per batch: a tenth of the Lambda requests and of the
      // receives and deletes). At most 3 hosts are worked at once (lambdas/fetch.ts): the pages in memory.
      // 80 batches at once. A page no longer waits for its host in the function (issue 26): a batch of 10
      // takes ~1.7 s, ~6 pages a second, and the day's length is set by the largest hosts' slots (20,000
      // pages 2 s apart: 11 h), not by this. bench --only scale, 5 M pages from 10,000 hosts, daily burst:
      // 300 fetched 1,800 pages/s at the peak, over the by-day index's one partition (1,000 WCU/s), and
      // left 1.1 M articles waiting for dedup; 150: 900/s, 567,000 waiting; 80: 480/s (48 %), what dedup's
      // 50 take (~550/s), every page within 15.5 h, none waiting over 1 h.
      trigger: { kind: "queue", queue: "fetch", batchSize: FETCH_BATCH_SIZE, maxConcurrency: 80 },
      access: {
        tables: { articles: "readwrite", frontier: "readwrite", hosts: "readwrite" },
        // fetch: a page delivered before its slot is sent again, delayed towards it (lambdas/fetch.ts).
        queues: { dedup: "send", fetch: "send" },
        deadLetterQueues: { fetch: "send" },
        buckets: { raw: "write" },
      },
      description: "Fetches a page politely, stores a raw sample, extracts the article, signs it for dedup.",
    },
    dedup: {
      entry: "lambdas/dedup.ts",
      memoryMb: 512,
      timeoutSeconds: DEDUP_TIMEOUT_SECONDS,
      // 50: dedup takes ~209 ms an article (metered run), so 10 at once clusters ~48 a second, below the
      // 58 a second of a 5 M-article day and the ~100 a second of a 5-file backfill (bench --only scale).
      trigger: { kind: "queue", queue: "dedup", batchSize: 10, maxConcurrency: 50 },
      access: {
        tables: { fingerprints: "readwrite", buckets: "readwrite", clusters: "readwrite" },
        queues: {},
        buckets: {},
      },
      description: "Finds LSH candidates, confirms near-duplicates and unions them into story clusters.",
    },
    quality: {
      entry: "lambdas/quality.ts",
      memoryMb: 512,
      timeoutSeconds: 300,
      trigger: {
        kind: "schedule",
        cron: "cron(0 7 * * ? *)",
        description: "Daily quality report at 07:00 UTC",
      },
      access: { tables: { articles: "read", sources: "readwrite" }, queues: {}, buckets: {} },
      description: "Per-publisher extraction quality metrics (body length, share with a valid date).",
    },
    backfill: {
      entry: "lambdas/backfill.ts",
      // Extraction is CPU-bound: 1,769 MB is one full vCPU. The file is streamed, never held: memory
      // is one record (capped at 5 MB decoded) and its extraction, as in fetch.
      memoryMb: 1769,
      timeoutSeconds: BACKFILL_TIMEOUT_SECONDS,
      trigger: { kind: "distributed-map", description: "One WARC file per item (storytrail backfill)" },
      // The WARC bucket itself is read under the deploy settings' backfill.bucket/prefix (infra/backfill.ts).
      access: {
        tables: { articles: "readwrite" },
        queues: { dedup: "send" },
        buckets: { raw: "write" },
      },
      description: "Streams one WARC file from S3; each HTML response becomes an article sent to dedup.",
    },
    archive: {
      entry: "lambdas/archive.ts",
      // Measured (bench --only archive, 1 M synthetic articles of ~500 words, Node 24, zstd, 2026-12-06):
      // peak RSS 936 MB under V8's defaults, 814 MB with a 512 MB old space; 1,769 MB is ~2x that and one
      // full vCPU for the encoding and compression (149-154 CPU s a million).
      memoryMb: 1769,
      // Lambda's maximum, per step: a shard of up to SHARD_ARTICLES (1 M) is written in ~150-300 s
      // (docs/scale.md "Archive"), so a 5 M day is ~5 shards of steps, not one invocation.
      timeoutSeconds: 900,
      trigger: {
        kind: "schedule",
        // After midnight UTC, once yesterday's last fetches are through dedup (the dedup queue's alarm age is 1 h).
        cron: "cron(30 1 * * ? *)",
        description: "Daily at 01:30 UTC: archive yesterday and re-check the day before, a day in shards",
        // 3 shards at once: a 5 M day's ~5 shards in two waves, and 3 x ~1 M rows of reads and
        // UpdateItems at once stay well under the tables' on-demand throughput.
        steps: { timeoutSeconds: ARCHIVE_RUN_SECONDS, shardConcurrency: 3 },
      },
      access: {
        // hosts: the day's lease (shared/aws/day-lease-item.ts); articles and clusters: the hot window.
        tables: { articles: "readwrite", fingerprints: "read", clusters: "readwrite", hosts: "readwrite" },
        queues: {},
        buckets: { raw: "readwrite" },
        objects: { prefix: ARCHIVE_PREFIX, delete: true },
      },
      description:
        "Writes each collected day's articles and stories to S3 as Parquet with a manifest, then starts their hot window.",
    },
  },
};

/** Physical names of the resources, filled by CDK tokens or by the local runtime. */
export interface ResourceNames {
  readonly tables: Readonly<Record<TableName, string>>;
  readonly queueUrls: Readonly<Record<QueueName, string>>;
  readonly deadLetterQueueUrls: Readonly<Record<QueueName, string>>;
  readonly buckets: Readonly<Record<BucketName, string>>;
}

/** The environment a function gets: only the resources it may access (least privilege, also in config). */
export function environmentFor(fn: FunctionName, names: ResourceNames): Record<string, string> {
  const { access } = topology.functions[fn];
  const env: Record<string, string> = {};
  for (const t of Object.keys(access.tables) as TableName[]) env[envNames.table(t)] = names.tables[t];
  for (const q of Object.keys(access.queues) as QueueName[]) env[envNames.queue(q)] = names.queueUrls[q];
  // Its own queue too: fetch puts a page whose host is not due back until its slot (ChangeMessageVisibility,
  // which the event source's consume grant allows).
  const { trigger } = topology.functions[fn];
  if (trigger.kind === "queue") env[envNames.queue(trigger.queue)] = names.queueUrls[trigger.queue];
  for (const q of Object.keys(access.deadLetterQueues ?? {}) as QueueName[])
    env[envNames.deadLetterQueue(q)] = names.deadLetterQueueUrls[q];
  for (const b of Object.keys(access.buckets) as BucketName[]) env[envNames.bucket(b)] = names.buckets[b];
  return env;
}

export const tableNames = Object.keys(topology.tables) as TableName[];
export const queueNames = Object.keys(topology.queues) as QueueName[];
export const functionNames = Object.keys(topology.functions) as FunctionName[];

/** The function a queue triggers: the one whose trigger names it. */
export function consumerOf(queue: QueueName): FunctionName {
  const fn = functionNames.find((f) => {
    const trigger = topology.functions[f].trigger;
    return trigger.kind === "queue" && trigger.queue === queue;
  });
  if (!fn) throw new Error(`no function is triggered by the ${queue} queue`);
  return fn;
}
