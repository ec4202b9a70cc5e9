/**
 * The backfill's line in the cost model: dollars per million archived (WARC) records through the
 * deployed backfill (infra/backfill.ts). An imported article costs what a crawled one costs after its
 * GET (extraction, Articles, raw sample, dedup queue, dedup λ and its tables: the metered run's own
 * figures through costBreakdown), without discovery, the Frontier, host pacing, the fetch queue or the
 * wait for a publisher; plus reading the WARC file (ranged S3 GETs, parsing every record) and the
 * Distributed Map's state transitions.
 */
import { RANGE_BYTES } from "../shared/aws/s3-object-bytes";
import { type CostLine, costBreakdown, type Observed, type Settings } from "./cost-model";
import { PRICES, type Prices } from "./prices";

export interface BackfillAssumptions {
  /** Share of records that become articles (HTML responses that extract; the rest are counted and skipped). */
  readonly articlesPerRecord: number;
  /** Records in one WARC file, and the file's compressed size. */
  readonly recordsPerFile: number;
  readonly bytesPerFile: number;
  /** Measured: ms of one core to read and parse one record from a per-record gzip WARC (no extraction). */
  readonly readMsPerRecord: number;
}

/**
 * CC-NEWS as the bench assumes it (not measured here: no archive is downloaded): ~1 GB files of
 * ~30,000 records, most of them HTML responses that extract.
 */
export const CC_NEWS_ASSUMED = { articlesPerRecord: 0.8, recordsPerFile: 30_000, bytesPerFile: 1e9 } as const;

/** Lambda's limit less the function's stop margin: the part of a file one invocation reads. */
const INVOCATION_MS = 840_000;
/** Per invocation: ImportFile and FileDone; per file: the child execution's start and FileImported. */
const TRANSITIONS_PER_INVOCATION = 2;
const TRANSITIONS_PER_FILE = 2;

/** Dollars per million archived records, line by line (quantities per million records). */
export function backfillCostLines(
  obs: Observed,
  s: Settings,
  a: BackfillAssumptions,
  prices: Prices = PRICES,
): CostLine[] {
  const fetch = obs.functions.fetch;
  const dedup = obs.functions.dedup;
  if (!fetch || !dedup) throw new Error("backfillCostLines: the observation has no fetch or dedup function");
  const memoryMb = s.memoryMb.backfill ?? 1769;
  // One core's time per record: parse every record, and for an article what fetch spends after its GET.
  const msPerRecord = a.readMsPerRecord + a.articlesPerRecord * (fetch.cpuMs + fetch.ioMs);
  const invocationsPerFile = Math.ceil((msPerRecord * a.recordsPerFile) / INVOCATION_MS);
  const articlesPerFile = a.recordsPerFile * a.articlesPerRecord;
  const rangedGets = a.bytesPerFile / RANGE_BYTES;
  const kept = new Set(["articles", "fingerprints", "buckets", "clusters"]);
  // Per article, as costBreakdown counts it; scaled to per record below.
  const imported: Observed = {
    ...obs,
    functions: {
      backfill: {
        invocationsPerArticle: invocationsPerFile / articlesPerFile,
        cpuMs: (msPerRecord * a.recordsPerFile) / invocationsPerFile,
        ioMs: 0,
        appLogBytes: 0,
      },
      dedup,
    },
    sqs: { fetchQueueRequests: 0, standardRequests: obs.sqs.standardRequests },
    tables: Object.fromEntries(Object.entries(obs.tables).filter(([t]) => kept.has(t))),
    s3: { ...obs.s3, gets: obs.s3.gets + rangedGets / articlesPerFile },
  };
  const lines = costBreakdown(imported, { ...s, memoryMb: { ...s.memoryMb, backfill: memoryMb } }, prices)
    // No fetch queue and no Frontier in a backfill: its put-backs and early deliveries do not apply.
    .filter((l) => !l.item.startsWith("fetch queue") && !l.item.startsWith("frontier put-back"))
    .map((l) => ({ ...l, quantity: l.quantity * a.articlesPerRecord, usd: l.usd * a.articlesPerRecord }));
  const transitions =
    (TRANSITIONS_PER_FILE + TRANSITIONS_PER_INVOCATION * invocationsPerFile) / a.recordsPerFile;
  lines.push({
    service: "Step Functions",
    item: `state transitions (${invocationsPerFile} invocations per file)`,
    quantity: transitions * 1e6,
    unit: "transitions",
    usd: transitions * 1e6 * prices.sfnStandardPerTransition,
  });
  return lines;
}

/** ms per record to read and parse a per-record gzip WARC of synthetic news pages (no extraction). */
export async function measureWarcReadMs(records = 400): Promise<number> {
  const [{ readWarc }, { writeWarc }, { syntheticPage }] = await Promise.all([
    import("../shared/backfill/warc-pages"),
    import("../test/support/warc-files"),
    import("../test/support/synthetic-page"),
  ]);
  const date = "2026-11-30T12:00:00Z";
  const warc = await writeWarc(
    Array.from({ length: records }, (_, i) => ({
      type: "response" as const,
      url: `https://news.example/${i}`,
      date,
      body: syntheticPage(i),
    })),
    "record-gzip",
  );
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < warc.length; i += 64 * 1024) yield warc.subarray(i, i + 64 * 1024);
  }
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    const t = performance.now();
    for await (const _ of readWarc(chunks(), { maxBytes: 5 * 1024 * 1024 }));
    times.push((performance.now() - t) / records);
  }
  return Math.min(...times);
}
