/**
 * The monthly bill over months (issue 40): the crawl's processing at a daily rate, and what keeping the
 * dataset costs as it accumulates, in today's design (every table kept forever but the TTL'd Buckets and
 * Hosts, point-in-time recovery on every table) and in the lifecycle (hot tables hold a window, the archive
 * in S3 as Parquet queried with Athena, PITR only where nothing rebuilds a table, each table's class chosen
 * by the numbers). Pure arithmetic over the metered run's per-article figures (bench/cost-model.ts) and the
 * archive's measured Parquet bytes (bench/archive-bytes.ts).
 */
import { topology } from "../infra/topology";
import type { ArchiveBytes } from "./archive-bytes";
import {
  type CostLine,
  costBreakdown,
  costLine,
  FULL_VCPU_MB,
  lambdaGbSeconds,
  type Observed,
  readUnits,
  type Settings,
  writeUnits,
} from "./cost-model";
import { GB, PRICES, type Prices, TB } from "./prices";

/** An Articles by-day index entry: its keys and three projected attributes (infra/topology.ts: ~150 bytes). */
const BY_DAY_INDEX_ENTRY_BYTES = 150;

/** A month of the bill: a year's days over twelve (5 M articles a day: 152 M a month). */
export const DAYS_PER_MONTH = 365 / 12;

/** How long a table's items stay. `fixed`: the table does not grow with the articles (Sources; Hosts, whose
 * items expire): priced as one month of articles' items, as the per-million model does. */
export type Retention =
  | { readonly kind: "forever" }
  | { readonly kind: "window"; readonly days: number }
  | { readonly kind: "fixed" };

/** DynamoDB's names for the two table classes. */
export type TableClass = "STANDARD" | "STANDARD_INFREQUENT_ACCESS";

export interface TablePolicy {
  readonly retention: Retention;
  readonly pitr: boolean;
  readonly tableClass: TableClass;
}

/** What the docs' queries read, and how often. */
export interface QueryLoad {
  readonly queriesPerDay: number;
  /** Days of partitions each query reads (partition pruning on `dt`). */
  readonly daysPerQuery: number;
  /** S3 GETs Athena makes per file it reads (the footer, then the column chunks it needs). */
  readonly getsPerFile: number;
}

export interface ArchivePlan {
  readonly bytes: Pick<
    ArchiveBytes,
    "articleBytes" | "articleBytesWithoutBody" | "storyBytes" | "encodeCpuMsPerArticle" | "codecs"
  >;
  /** Articles per part file (and per archive invocation: one part each). */
  readonly partRows: number;
  /** Multipart upload part size: a file larger than it is uploaded in parts (+ create and complete). */
  readonly uploadPartBytes: number;
  readonly memoryMb: number;
  /** Wait per article for its table reads (BatchGetItem of 100 items, Query per story). */
  readonly ioMsPerArticle: number;
  /** Writes of each day: its own run, and the next day's pass that adds late arrivals (both rewrite the day). */
  readonly runsPerDay: number;
  readonly query: QueryLoad;
}

export interface Design {
  readonly label: string;
  readonly tables: Readonly<Record<string, TablePolicy>>;
  /** The Clusters table's summary items (one per story); its member and outlet items follow `tables.clusters`. */
  readonly clusterSummaries: Retention;
  /** Absent: no archive. */
  readonly archive?: ArchivePlan;
}

export type Category = "processing" | "storage" | "backups" | "archive" | "query";

export interface BillLine extends CostLine {
  readonly category: Category;
}

/**
 * Mean article-days a table holds during `month` (1-based) at one day's articles a day: items written
 * since the start, each kept for the window. A window's table is flat from the month after it fills.
 */
export function heldArticleDays(r: Retention, month: number): number {
  if (r.kind === "fixed") return DAYS_PER_MONTH;
  const w = r.kind === "window" ? r.days : Number.POSITIVE_INFINITY;
  // ∫ min(t, w) dt from the month's first day to its last, over the month's days.
  const integral = (t: number) => (t <= w ? (t * t) / 2 : (w * w) / 2 + w * (t - w));
  return (integral(month * DAYS_PER_MONTH) - integral((month - 1) * DAYS_PER_MONTH)) / DAYS_PER_MONTH;
}

/** Article-days of items that expire during `month` (TTL deletions). */
function expiringArticleDays(r: Retention, month: number): number {
  if (r.kind !== "window") return 0;
  const past = (t: number) => Math.max(0, t - r.days);
  return past(month * DAYS_PER_MONTH) - past((month - 1) * DAYS_PER_MONTH);
}

function retentionLabel(r: Retention): string {
  return r.kind === "forever" ? "kept forever" : r.kind === "fixed" ? "does not grow" : `${r.days} days`;
}

const CLASS_LABEL: Record<TableClass, string> = {
  STANDARD: "Standard",
  STANDARD_INFREQUENT_ACCESS: "Standard-IA",
};

function classPrices(c: TableClass, prices: Prices) {
  return c === "STANDARD"
    ? { storage: prices.dynamoStoragePerGbMonth, wru: prices.dynamoPerWru, rru: prices.dynamoPerRru }
    : { storage: prices.dynamoIaStoragePerGbMonth, wru: prices.dynamoIaPerWru, rru: prices.dynamoIaPerRru };
}

function policyOf(design: Design, table: string): TablePolicy {
  const p = design.tables[table];
  if (!p) throw new Error(`${design.label}: no retention, backup or class given for the ${table} table`);
  return p;
}

/** One table's stored parts: Clusters' summary items apart from its member and outlet items. */
function tableParts(obs: Observed, s: Settings, design: Design, table: string) {
  const t = obs.tables[table]!;
  const policy = policyOf(design, table);
  if (table === "buckets")
    return [
      {
        label: "",
        bytes: (t.storedBytes * s.lshBandsTotal) / obs.lshBandsTotal,
        retention: policy.retention,
      },
    ];
  if (table !== "clusters") return [{ label: "", bytes: t.storedBytes, retention: policy.retention }];
  const same = JSON.stringify(design.clusterSummaries) === JSON.stringify(policy.retention);
  if (same) return [{ label: "", bytes: t.storedBytes, retention: policy.retention }];
  const summary = obs.clusterSummaryBytes;
  if (summary === undefined)
    throw new Error("the observation has no clusterSummaryBytes: meter a run (bench/metered-run.ts)");
  return [
    { label: " summary items", bytes: summary, retention: design.clusterSummaries },
    { label: " member and outlet items", bytes: t.storedBytes - summary, retention: policy.retention },
  ];
}

/** The archive's writes and its queries in a month (lines per month, not per article). */
function archiveLines(obs: Observed, design: Design, perDay: number, prices: Prices): BillLine[] {
  const a = design.archive;
  if (!a) return [];
  const perMonth = perDay * DAYS_PER_MONTH;
  const runs = a.runsPerDay * DAYS_PER_MONTH;
  const articleItem = (obs.tables.articles?.storedBytes ?? 0) - prices.dynamoItemOverheadBytes;
  const clusterBytes = obs.tables.clusters?.storedBytes ?? 0;
  const price = (table: string) => classPrices(policyOf(design, table).tableClass, prices);
  const lines: BillLine[] = [];
  const add = (category: Category, ...line: Parameters<typeof costLine>) =>
    lines.push({ category, ...costLine(...line) });
  // The by-day index entry in a Query (items summed into 4 KB units), then the item by BatchGetItem.
  add(
    "archive",
    "DynamoDB",
    `archive: each run reads the day's Articles items (by-day index, BatchGetItem, eventual) × ${a.runsPerDay}`,
    (readUnits(articleItem, "eventual") + (0.5 * BY_DAY_INDEX_ENTRY_BYTES) / 4096) * perMonth * a.runsPerDay,
    "RRU",
    price("articles").rru,
  );
  add(
    "archive",
    "DynamoDB",
    `archive: and their stories' Clusters items (a Query per story, eventual) × ${a.runsPerDay}`,
    readUnits(clusterBytes, "eventual") * perMonth * a.runsPerDay,
    "RRU",
    price("clusters").rru,
  );
  // An UpdateItem is billed at the item's size: the article's whole item for its expires_at.
  add(
    "archive",
    "DynamoDB",
    "archive: expires_at set on each archived Articles item (UpdateItem at the item's size)",
    writeUnits(articleItem) * perMonth,
    "WRU",
    price("articles").wru,
  );
  add(
    "archive",
    "DynamoDB",
    "archive: expires_at set on each article's member item and (at most) one outlet item",
    2 * perMonth,
    "WRU",
    price("clusters").wru,
  );
  const ms = a.bytes.encodeCpuMsPerArticle * Math.max(1, FULL_VCPU_MB / a.memoryMb) + a.ioMsPerArticle;
  const invocations = Math.ceil(perDay / a.partRows) * runs;
  add(
    "archive",
    "Lambda",
    `archive function (${a.memoryMb} MB, ${ms.toFixed(2)} ms/article: Parquet encoding and table reads) × ${a.runsPerDay}`,
    invocations * lambdaGbSeconds((ms * perDay) / Math.ceil(perDay / a.partRows), a.memoryMb),
    "GB-s",
    prices.lambdaArmPerGbSecond,
  );
  add(
    "archive",
    "Lambda",
    "archive requests (one per part file)",
    invocations,
    "requests",
    prices.lambdaPerRequest,
  );
  const filesPerDay = (bytesPerArticle: number) => {
    const files = Math.ceil(perDay / a.partRows);
    const size = a.partRows * bytesPerArticle;
    return { files, putsPerFile: size > a.uploadPartBytes ? Math.ceil(size / a.uploadPartBytes) + 2 : 1 };
  };
  const art = filesPerDay(a.bytes.articleBytes);
  const sto = filesPerDay(a.bytes.storyBytes);
  add(
    "archive",
    "S3",
    `archive PUTs: ${art.files} + ${sto.files} part files a day (multipart, ${a.uploadPartBytes / 2 ** 20} MiB parts), 2 symlink lists, the manifest × ${a.runsPerDay}`,
    (art.files * art.putsPerFile + sto.files * sto.putsPerFile + 3) * runs,
    "requests",
    prices.s3PerPut,
  );
  const q = a.query;
  const queries = q.queriesPerDay * DAYS_PER_MONTH;
  const scanned = Math.max(
    prices.athenaMinBytesPerQuery,
    q.daysPerQuery * perDay * (a.bytes.articleBytesWithoutBody + a.bytes.storyBytes),
  );
  add(
    "query",
    "Athena",
    `${q.queriesPerDay} queries a day over ${q.daysPerQuery} days' partitions, no body column (${(scanned / GB).toFixed(1)} GB each)`,
    (queries * scanned) / TB,
    "TB scanned",
    prices.athenaPerTbScanned,
  );
  add(
    "query",
    "S3",
    `GETs: Athena reads ${q.getsPerFile} ranges of each file, and the symlink lists`,
    queries * q.daysPerQuery * ((art.files + sto.files) * q.getsPerFile + 2),
    "requests",
    prices.s3PerGet,
  );
  // GetDatabase and GetTable per query; partition projection stores and reads no partitions.
  const glueRequests = queries * 2;
  add(
    "query",
    "Glue",
    `Data Catalog: 3 objects, ${Math.round(glueRequests).toLocaleString("en")} requests a month (free under 1 M of each)`,
    Math.max(0, glueRequests - prices.glueFreeRequestsPerMonth),
    "requests",
    prices.gluePerRequest,
  );
  return lines;
}

/** The bill of `month` (1-based) at `articlesPerDay`, line by line. */
export function monthlyBill(
  obs: Observed,
  s: Settings,
  design: Design,
  month: number,
  articlesPerDay: number,
  prices: Prices = PRICES,
): BillLine[] {
  const perMonth = articlesPerDay * DAYS_PER_MONTH;
  const scale = perMonth / 1e6;
  // The crawl's lines without storage (priced below from what the month holds), at the month's articles.
  const processing = costBreakdown(obs, { ...s, storageMonths: 0 }, prices).filter(
    (l) => l.unit !== "GB-month",
  );
  const lines: BillLine[] = processing.map((l) => ({
    ...l,
    quantity: l.quantity * scale,
    usd: l.usd * scale,
    category: "processing",
  }));
  const add = (category: Category, ...line: Parameters<typeof costLine>) =>
    lines.push({ category, ...costLine(...line) });
  for (const table of Object.keys(obs.tables)) {
    const policy = policyOf(design, table);
    const p = classPrices(policy.tableClass, prices);
    let tableGbMonths = 0;
    let expiredGb = 0;
    for (const part of tableParts(obs, s, design, table)) {
      const gbMonths = (part.bytes * articlesPerDay * heldArticleDays(part.retention, month)) / GB;
      tableGbMonths += gbMonths;
      expiredGb += (part.bytes * articlesPerDay * expiringArticleDays(part.retention, month)) / GB;
      add(
        "storage",
        "DynamoDB",
        `${table}${part.label} (${retentionLabel(part.retention)}, ${CLASS_LABEL[policy.tableClass]})`,
        gbMonths,
        "GB-month",
        p.storage,
      );
    }
    if (expiredGb > 0)
      add(
        "storage",
        "DynamoDB",
        `${table}: TTL deletions (no write units)`,
        expiredGb,
        "GB",
        prices.dynamoTtlDeletePerItem,
      );
    if (policy.pitr)
      add(
        "backups",
        "DynamoDB",
        `${table} PITR (the table's size)`,
        tableGbMonths,
        "GB-month",
        prices.dynamoPitrPerGbMonth,
      );
    if (policy.tableClass === "STANDARD_INFREQUENT_ACCESS") {
      // The price of the cheaper storage: the table's requests 25 % dearer (counted with storage, not processing).
      for (const l of processing.filter(
        (x) => x.item.startsWith(`${table} `) && (x.unit === "WRU" || x.unit === "RRU"),
      ))
        add(
          "storage",
          "DynamoDB",
          `${l.item} at Standard-IA (+25 %)`,
          l.quantity * scale,
          l.unit,
          l.unit === "WRU" ? p.wru - prices.dynamoPerWru : p.rru - prices.dynamoPerRru,
        );
    }
  }
  const sampleScale = obs.rawSampleRate > 0 ? s.rawSampleRate / obs.rawSampleRate : 0;
  const rawDays = topology.buckets.raw.expireAfterDays;
  add(
    "storage",
    "S3",
    `raw samples (expire after ${rawDays} days)`,
    (obs.s3.storedBytes *
      sampleScale *
      articlesPerDay *
      heldArticleDays({ kind: "window", days: rawDays }, month)) /
      GB,
    "GB-month",
    prices.s3StoragePerGbMonth,
  );
  const a = design.archive;
  if (a)
    add(
      "storage",
      "S3",
      `archive: Parquet (${a.bytes.codecs.join(", ")}) articles and stories, ${((a.bytes.articleBytes + a.bytes.storyBytes) / 1024).toFixed(2)} KB an article`,
      ((a.bytes.articleBytes + a.bytes.storyBytes) *
        articlesPerDay *
        heldArticleDays({ kind: "forever" }, month)) /
        GB,
      "GB-month",
      prices.s3StoragePerGbMonth,
    );
  lines.push(...archiveLines(obs, design, articlesPerDay, prices));
  return lines;
}

export interface BillSummary {
  readonly byCategory: Readonly<Record<Category, number>>;
  readonly total: number;
  /** (storage + backups) ÷ processing: issue 40's target is at most 0.25 at month 12. */
  readonly keepRatio: number;
}

export function summarize(lines: readonly BillLine[]): BillSummary {
  const byCategory: Record<Category, number> = {
    processing: 0,
    storage: 0,
    backups: 0,
    archive: 0,
    query: 0,
  };
  for (const l of lines) byCategory[l.category] += l.usd;
  const total = Object.values(byCategory).reduce((x, y) => x + y, 0);
  return { byCategory, total, keepRatio: (byCategory.storage + byCategory.backups) / byCategory.processing };
}
