/**
 * Cost model: what a local run measured per article (requests, capacity units, bytes, handler time)
 * plus the settings that scale it → dollars per million articles at AWS list prices (bench/prices.ts).
 * Pure arithmetic: the billing rules are unit-tested in test/bench/cost-model.test.ts.
 */
import {
  EARLY_BATCH_MS,
  earlyPerPage,
  type FetchBatchShape,
  fetchBatchRounds,
  fetchBatchWaitMs,
  fetchPageWaitShare,
  hostsAtShape,
  putBacksPerPage,
} from "./fetch-batch";
import { GB, PRICES, type Prices } from "./prices";

// ---- billing rules ----------------------------------------------------------------------------

export type ReadMode = "eventual" | "strong" | "transactional";

/** DynamoDB read request units: 4 KB units, eventual = 0.5, strong = 1, transactional = 2 per unit. */
export function readUnits(bytes: number, mode: ReadMode = "strong"): number {
  const units = Math.max(1, Math.ceil(bytes / 4096));
  return units * (mode === "eventual" ? 0.5 : mode === "transactional" ? 2 : 1);
}

/** DynamoDB write request units: 1 KB units, doubled inside a transaction. */
export function writeUnits(bytes: number, transactional = false): number {
  return Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);
}

/** SQS bills every 64 KB chunk of a request's payload as one request. */
export function sqsBilledRequests(payloadBytes: number, prices: Prices = PRICES): number {
  return Math.max(1, Math.ceil(payloadBytes / prices.sqsChunkBytes));
}

/** Lambda GB-seconds of one invocation (duration billed in whole milliseconds). */
export function lambdaGbSeconds(durationMs: number, memoryMb: number): number {
  return (Math.ceil(durationMs) / 1000) * (memoryMb / 1024);
}

/** Size of a DynamoDB attribute value by DynamoDB's rules (numbers approximated by their digits). */
function valueSize(v: unknown): number {
  if (v === null || v === undefined || typeof v === "boolean") return 1;
  if (typeof v === "string") return Buffer.byteLength(v, "utf8");
  if (typeof v === "number" || typeof v === "bigint") {
    const digits = String(v)
      .replace(/[^0-9]/g, "")
      .replace(/^0+/, "").length;
    return Math.ceil(Math.max(1, digits) / 2) + 1;
  }
  if (v instanceof Uint8Array) return v.byteLength;
  if (v instanceof Set) return [...v].reduce((s: number, x) => s + valueSize(x), 0);
  if (Array.isArray(v)) return 3 + v.reduce((s: number, x) => s + 1 + valueSize(x), 0);
  if (typeof v === "object") {
    return 3 + Object.entries(v).reduce((s, [k, x]) => s + 1 + Buffer.byteLength(k) + valueSize(x), 0);
  }
  return 1;
}

/** Item size as DynamoDB counts it: attribute names plus values. */
export function dynamoItemSize(item: Readonly<Record<string, unknown>>): number {
  let size = 0;
  for (const [k, v] of Object.entries(item)) size += Buffer.byteLength(k) + valueSize(v);
  return size;
}

// ---- usage ------------------------------------------------------------------------------------

/** What a metered local run observed, per article unless named otherwise. */
export interface Observed {
  readonly articles: number;
  /**
   * Per function: invocations per article, CPU and I/O-wait ms and application log bytes (at INFO) per
   * invocation; and the metrics (EMF) documents' bytes, printed at every log level, per invocation and
   * message group (a fetch batch prints one per host's source and one per outcome: counted per host).
   */
  readonly functions: Readonly<
    Record<
      string,
      {
        invocationsPerArticle: number;
        cpuMs: number;
        ioMs: number;
        appLogBytes: number;
        metricLogBytesPerGroup?: number;
      }
    >
  >;
  /** Mean messages (deliveries) per fetch invocation. */
  readonly fetchBatchSize: number;
  /** Deliveries per article the metered run put back until their host's slot (its functions, queue and
   * Frontier figures include them); absent: none. */
  readonly fetchPutBacks?: number;
  /** SQS requests as billed: the fetch queue's, and the other queues' (all standard queues);
   * `fetchDedupSends`, of the latter, fetch's sends to the dedup queue (one a batch: it scales with the
   * batch size, fetch-batch.ts withFetchBatchSize). */
  readonly sqs: { fetchQueueRequests: number; standardRequests: number; fetchDedupSends?: number };
  /** Per table: RRU and WRU per article (ConsumedCapacity, transactions doubled) and stored bytes. */
  readonly tables: Readonly<Record<string, { rru: number; wru: number; storedBytes: number }>>;
  /** Of `tables.clusters.storedBytes`, the summary items' (one per story: kept when a story's member and
   * outlet items leave the hot window, bench/cost-over-time.ts); absent: not measured. */
  readonly clusterSummaryBytes?: number;
  /** The fetch function's part of the Hosts table's units (in `tables.hosts`), replaced by the
   * admissions and request ends at the batch's shape (fetch-batch.ts hostsAtShape). */
  readonly fetchPacing?: { rru: number; wru: number };
  readonly s3: { puts: number; gets: number; storedBytes: number };
  /** Settings the run used, so alternatives can be scaled from them. */
  readonly rawSampleRate: number;
  readonly lshBandsTotal: number;
}

export interface Settings {
  readonly memoryMb: Readonly<Record<string, number>>;
  /** STORYTRAIL_MIN_HOST_DELAY_MS: a host's pages are this far apart (end to start); a page waits for it
   * in the queue, not in the function, unless it is within MAX_WAIT_IN_FUNCTION_MS. */
  readonly minHostDelayMs: number;
  /** Assumed time a real publisher takes to answer a page (loopback answers in ~1 ms). */
  readonly pageLatencyMs: number;
  readonly rawSampleRate: number;
  /** LSH bands over the signature plus the lede bands: one Buckets item and one query each. */
  readonly lshBandsTotal: number;
  /** Application logs at INFO (fetch and dedup: one line per invocation for its batch; discover: one per
   * source) or WARN (none on success). */
  readonly logLevel: "INFO" | "WARN";
  /** Months the stored bytes are kept (storage is billed per month). */
  readonly storageMonths: number;
  /** Months a Buckets entry lives before its TTL removes it (STORYTRAIL_LSH_RETENTION_DAYS). */
  readonly lshRetentionMonths: number;
  /** Active X-Ray tracing (deploy setting `tracing`, off by default). */
  readonly tracing: boolean;
  /** The crawl's shape and the fetch batch's concurrency (bench/fetch-batch.ts); absent: a daily burst. */
  readonly fetchBatch?: FetchBatchShape;
}

/** Lambda gives a function one full vCPU at 1,769 MB; below that, CPU time stretches. */
export const FULL_VCPU_MB = 1769;
/** Share of invocations X-Ray's default sampling rule (1 per second + 5 %) traces at crawl rates. */
const XRAY_SAMPLED_SHARE = 0.1;

/** START, END and REPORT lines Lambda writes per invocation (REPORT with an X-Ray trace id). */
const PLATFORM_LOG_BYTES_PER_INVOCATION = 420;

export interface CostLine {
  readonly service: string;
  readonly item: string;
  /** Quantity per million articles, in `unit`. */
  readonly quantity: number;
  readonly unit: string;
  readonly usd: number;
}

/** One line: a quantity at a unit price, so the dollars are derived and never written twice. */
export function costLine(
  service: string,
  item: string,
  quantity: number,
  unit: string,
  unitPrice: number,
): CostLine {
  return { service, item, quantity, unit, usd: quantity * unitPrice };
}

function monthsLabel(months: number): string {
  return `${months} month${months === 1 ? "" : "s"}`;
}

/** Fetch deliveries per page at the settings' shape over those of the metered run (whose slots were
 * all within the 15-minute delay: none early; early deliveries are invocations of their own). */
function deliveryScale(obs: Pick<Observed, "fetchPutBacks">, s: Settings): number {
  return (1 + putBacksPerPage(s)) / (1 + (obs.fetchPutBacks ?? 0));
}

/** Put-backs per article at the settings' shape beyond those the metered run measured. */
function extraPutBacks(obs: Pick<Observed, "fetchPutBacks">, s: Settings): number {
  return putBacksPerPage(s) - (obs.fetchPutBacks ?? 0);
}

/** Duration of one invocation at the given memory: CPU stretched below a full vCPU, plus waits. */
export function invocationMs(
  fn: string,
  obs: Observed,
  s: Settings,
): { ms: number; cpuMs: number; waitMs: number } {
  const f = obs.functions[fn];
  if (!f) return { ms: 0, cpuMs: 0, waitMs: 0 };
  const mem = s.memoryMb[fn] ?? 1024;
  const cpuMs = f.cpuMs * Math.max(1, FULL_VCPU_MB / mem);
  const waitMs = f.ioMs;
  if (fn === "fetch") {
    // The batch's fetched pages (one per host, 3 hosts at once) wait for their publishers; the pages put
    // back wait in the queue (bench/fetch-batch.ts). The run's work per invocation is spread over the
    // extra deliveries: an invocation of the same size fetches fewer pages.
    const share = deliveryScale(obs, s);
    return {
      ms: (cpuMs + waitMs) / share + fetchBatchWaitMs(obs.fetchBatchSize, s),
      cpuMs: cpuMs / share,
      waitMs: waitMs / share + fetchBatchWaitMs(obs.fetchBatchSize, s),
    };
  }
  return { ms: cpuMs + waitMs, cpuMs, waitMs };
}

/** Dollars per million articles, line by line. */
export function costBreakdown(obs: Observed, s: Settings, prices: Prices = PRICES): CostLine[] {
  const M = 1e6;
  const lines: CostLine[] = [];
  const add = (...line: Parameters<typeof costLine>) => lines.push(costLine(...line));
  const months = monthsLabel(s.storageMonths);
  let invocations = 0;
  let logBytes = 0;
  // Put-backs at the shape beyond the run's own (negative: fewer than the run had).
  const putBacks = extraPutBacks(obs, s);
  for (const [fn, f] of Object.entries(obs.functions)) {
    // A page put back before its slot is delivered again: fetch's invocations follow its deliveries.
    const inv = f.invocationsPerArticle * M * (fn === "fetch" ? deliveryScale(obs, s) : 1);
    invocations += inv;
    const { ms } = invocationMs(fn, obs, s);
    const memoryMb = s.memoryMb[fn] ?? 1024;
    const item = `${fn} compute (${memoryMb} MB, ${ms.toFixed(0)} ms/inv)`;
    add("Lambda", item, inv * lambdaGbSeconds(ms, memoryMb), "GB-s", prices.lambdaArmPerGbSecond);
    // A fetch batch prints its metrics documents once per fetched host's source.
    const groups = fn === "fetch" ? fetchBatchRounds(obs.fetchBatchSize, s).hosts : 1;
    logBytes +=
      inv *
      (PLATFORM_LOG_BYTES_PER_INVOCATION +
        (s.logLevel === "INFO" ? f.appLogBytes : 0) +
        (f.metricLogBytesPerGroup ?? 0) * groups);
  }
  // Early deliveries: batches of their own (fetch-batch.ts), each sending its pages again.
  const fetchFn = obs.functions.fetch;
  const earlyInvocations = fetchFn ? (earlyPerPage(s) / obs.fetchBatchSize) * M : 0;
  if (earlyInvocations > 0) {
    const memoryMb = s.memoryMb.fetch ?? 1024;
    add(
      "Lambda",
      `fetch: early deliveries' batches (${memoryMb} MB, ${EARLY_BATCH_MS} ms/inv)`,
      earlyInvocations * lambdaGbSeconds(EARLY_BATCH_MS, memoryMb),
      "GB-s",
      prices.lambdaArmPerGbSecond,
    );
    invocations += earlyInvocations;
    logBytes +=
      earlyInvocations *
      (PLATFORM_LOG_BYTES_PER_INVOCATION + (s.logLevel === "INFO" ? (fetchFn?.appLogBytes ?? 0) : 0));
  }
  add("Lambda", "requests", invocations, "requests", prices.lambdaPerRequest);
  add(
    "SQS",
    "fetch queue (send, receive, delete)",
    obs.sqs.fetchQueueRequests * M,
    "requests",
    prices.sqsStandardPerRequest,
  );
  // Each put-back beyond the run's: its share of a receive and of a batch's ChangeMessageVisibilityBatch;
  // each delivery before its slot: its share of a receive, a SendMessageBatch and the event source's delete.
  add(
    "SQS",
    "fetch queue put-backs beyond the run's (a receive and a visibility change share each) and early deliveries (a receive, a send and a delete share)",
    ((2 * putBacks + 3 * earlyPerPage(s)) / obs.fetchBatchSize) * M,
    "requests",
    prices.sqsStandardPerRequest,
  );
  add(
    "SQS",
    "standard requests (dedup and discover queues)",
    obs.sqs.standardRequests * M,
    "requests",
    prices.sqsStandardPerRequest,
  );
  let storedMonths = 0;
  for (const [table, measured] of Object.entries(obs.tables)) {
    // Fetch's pacing follows the batch's shape: a host's chain of pages reserves once (fetch-batch.ts).
    const t = table === "hosts" ? hostsAtShape(measured, obs, s) : measured;
    // Buckets items and their queries scale with the number of bands; their entries expire.
    const buckets = table === "buckets";
    const scale = buckets ? s.lshBandsTotal / obs.lshBandsTotal : 1;
    storedMonths +=
      t.storedBytes * scale * (buckets ? Math.min(s.storageMonths, s.lshRetentionMonths) : s.storageMonths);
    add("DynamoDB", `${table} writes`, t.wru * scale * M, "WRU", prices.dynamoPerWru);
    add("DynamoDB", `${table} reads`, t.rru * scale * M, "RRU", prices.dynamoPerRru);
  }
  // A page put back notes the delivery on its Frontier item (not taken for a killed one: fetch-attempt.ts);
  // the run's own notes are in its frontier writes.
  add("DynamoDB", "frontier put-back notes beyond the run's", putBacks * M, "WRU", prices.dynamoPerWru);
  add("DynamoDB", `storage (${months})`, (storedMonths * M) / GB, "GB-month", prices.dynamoStoragePerGbMonth);
  const sampleScale = obs.rawSampleRate > 0 ? s.rawSampleRate / obs.rawSampleRate : 0;
  add("S3", "PUT (raw samples)", obs.s3.puts * sampleScale * M, "requests", prices.s3PerPut);
  add("S3", "GET", obs.s3.gets * M, "requests", prices.s3PerGet);
  const s3GbMonths = ((obs.s3.storedBytes * sampleScale * M) / GB) * s.storageMonths;
  add("S3", `storage (${months})`, s3GbMonths, "GB-month", prices.s3StoragePerGbMonth);
  add("CloudWatch Logs", `ingestion (${s.logLevel})`, logBytes / GB, "GB", prices.logsIngestPerGb);
  // Active tracing samples by X-Ray's default rule: the first request each second, then 5 %. A crawl
  // runs tens of invocations a second, so about a tenth of them are traced.
  if (s.tracing)
    add(
      "X-Ray",
      "traces (default sampling, ~10 % of invocations)",
      invocations * XRAY_SAMPLED_SHARE,
      "traces",
      prices.xrayPerTrace,
    );
  return lines;
}

/** SQS messages per request at best (SendMessageBatch, ReceiveMessage and DeleteMessageBatch take 10). */
const SQS_MESSAGES_PER_REQUEST = 10;

/**
 * The design's floor, in dollars per million articles: what every article costs whatever the
 * implementation. Each article is claimed in the frontier, stored with its body, filed under one
 * LSH item per band and looked up under each band, joins or founds a story (member + summary), passes
 * two queues (fetch, dedup; sent, received and deleted, ten to a request at best) and is fetched by a
 * Lambda that waits for the publisher's page. Everything else (the host delay, dedup's compute and
 * state, candidate and cluster reads, logs, traces, samples) counts as free. A target below this
 * total cannot be met by tuning the code; only by changing the design or its settings.
 */
export function designFloor(obs: Observed, s: Settings, prices: Prices = PRICES): CostLine[] {
  const articles = obs.tables.articles;
  if (!articles) throw new Error("designFloor: the observation has no articles table (was the run metered?)");
  const M = 1e6;
  const wru = (item: string, perArticle: number) =>
    costLine("DynamoDB", item, perArticle * M, "WRU", prices.dynamoPerWru);
  const fetchMb = s.memoryMb.fetch ?? 1024;
  const waitShare = fetchPageWaitShare(obs.fetchBatchSize, s);
  return [
    wru("frontier claim (the conditional put that decides seen/new)", 1),
    // The stored record with its body; the run measured its WRU, index entry included.
    wru("article item (+ its by-day index entry)", articles.wru),
    wru("LSH entries (one item per band)", s.lshBandsTotal),
    costLine(
      "DynamoDB",
      "LSH look-ups (one eventually consistent query per band)",
      s.lshBandsTotal * readUnits(0, "eventual") * M,
      "RRU",
      prices.dynamoPerRru,
    ),
    wru("cluster member + summary (every article joins or founds a story)", 2),
    costLine(
      "DynamoDB",
      `article storage (${monthsLabel(s.storageMonths)})`,
      ((articles.storedBytes * M) / GB) * s.storageMonths,
      "GB-month",
      prices.dynamoStoragePerGbMonth,
    ),
    costLine(
      "Lambda",
      `fetch waiting for the page (${s.pageLatencyMs} ms at ${fetchMb} MB${waitShare < 1 ? `, ${waitShare.toFixed(2)} of it billed: hosts overlap` : ""})`,
      M * lambdaGbSeconds(s.pageLatencyMs * waitShare, fetchMb),
      "GB-s",
      prices.lambdaArmPerGbSecond,
    ),
    costLine(
      "SQS",
      "2 queues × send, receive, delete (10 messages per request)",
      (2 * 3 * M) / SQS_MESSAGES_PER_REQUEST,
      "requests",
      prices.sqsStandardPerRequest,
    ),
  ];
}

export function totalUsd(lines: readonly CostLine[]): number {
  return lines.reduce((s, l) => s + l.usd, 0);
}

export interface Alternative {
  readonly label: string;
  readonly settings: Settings;
  readonly usdPerMillion: number;
  /** Change against the default settings, in dollars per million articles. */
  readonly deltaUsd: number;
}

/** Re-computes the total with one setting changed at a time; sorted by how much each one moves it. */
export function sensitivity(
  obs: Observed,
  defaults: Settings,
  changes: readonly { label: string; change: Partial<Settings> }[],
  prices: Prices = PRICES,
): Alternative[] {
  const base = totalUsd(costBreakdown(obs, defaults, prices));
  return changes
    .map(({ label, change }) => {
      const settings: Settings = {
        ...defaults,
        ...change,
        memoryMb: { ...defaults.memoryMb, ...(change.memoryMb ?? {}) },
      };
      const usd = totalUsd(costBreakdown(obs, settings, prices));
      return { label, settings, usdPerMillion: usd, deltaUsd: usd - base };
    })
    .sort((a, b) => Math.abs(b.deltaUsd) - Math.abs(a.deltaUsd));
}
