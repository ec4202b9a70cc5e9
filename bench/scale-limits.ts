/**
 * The simulated day (scale-sim.ts) against the limits it meets: each DynamoDB table's busiest key
 * against a partition's 1,000 write and 3,000 read units a second, the tables' whole rates against a new
 * on-demand table's warm throughput, the Clusters stream, the FIFO queue and Lambda's concurrency.
 * The request units per article come from the metered run (cost-model.ts `Observed`); the key shapes
 * from the code named beside each row.
 */
import { topology } from "../infra/topology";
import { matchParams } from "../shared/dedup/params";
import { type Observed, readUnits, writeUnits } from "./cost-model";
import type { ScaleResult } from "./scale-sim";

/** AWS's figures (docs/scale.md cites each page). */
const AWS_LIMITS = {
  /** One partition: 1,000 write units and 3,000 read units a second, on demand or provisioned. */
  partitionWcu: 1000,
  partitionRcu: 3000,
  /** A new on-demand table's warm throughput; it doubles past each new peak (table-wide, not per key). */
  onDemandWarmWru: 4000,
  onDemandWarmRru: 12000,
  /** A standard queue: about 120,000 messages in flight (received, not deleted), quotas-messages.html;
   * its API rate is nearly unlimited (counted here as 100,000 a second, far above any demand). */
  inFlight: 120_000,
  standardTps: 100_000,
  /** Messages in one SendMessageBatch / ReceiveMessage. */
  sqsBatch: 10,
  /** At most two processes should read one stream shard at once. */
  streamReadersPerShard: 2,
} as const;

/** A Buckets item: band hash, article id, expiry and the 160-byte candidate digest (dedup-tables.ts). */
const BAND_ITEM_BYTES = 260;
/** An outlet item of a story (dedup-tables.ts keepEarliest): source, publication, time, type. */
const OUTLET_ITEM_BYTES = 150;
/**
 * A copy joining a story (dedup-tables.ts joinCluster + addOutlets): a transaction putting the member and
 * the summary (each ≤ 1 KB, doubled in a transaction) and the outlet's conditional update.
 */
const JOIN_WCU = 2 * writeUnits(1024) + 2 * writeUnits(1024) + writeUnits(OUTLET_ITEM_BYTES);
/** Stream records per article: its member, the summary and the outlet item change. */
const CLUSTER_ITEMS_PER_ARTICLE = 3;
/** The by-day index entry (article id, day, time, source, words, published): one write unit. */
const BY_DAY_ENTRY_WCU = 1;

export interface LimitRow {
  readonly what: string;
  /** Where the key's load comes from (the code that writes it). */
  readonly key: string;
  readonly demand: number;
  readonly limit: number;
  readonly unit: string;
}

function peakOf(perSecond: readonly number[]): number {
  let m = 0;
  for (const x of perSecond) if (x > m) m = x;
  return m;
}

export interface ScaleContext {
  readonly sim: ScaleResult;
  readonly obs: Observed;
  /** Copies of the day's most syndicated story (the hot cluster's outlets and the hot bands' items). */
  readonly syndicatedCopies: number;
  /** Seconds over which discovery claims and enqueues the burst's URLs (0: a steady crawl's run). */
  readonly discoverySpreadS: number;
  readonly accountConcurrency: number;
  /** Other functions' concurrency (discover, dispatcher, quality) counted against the account quota. */
  readonly otherConcurrency: number;
}

export function limitRows(c: ScaleContext): LimitRow[] {
  const { sim, obs } = c;
  const fetchedPeak = peakOf(sim.fetchedPerSecond);
  const dedupPeak = peakOf(sim.dedupedPerSecond);
  // The syndicated story's copies reach dedup no faster than they are fetched, nor than dedup runs.
  const copiesPeak = Math.min(peakOf(sim.syndicatedPerSecond), dedupPeak);
  const t = (name: string) => obs.tables[name] ?? { wru: 0, rru: 0, storedBytes: 0 };
  const candidates = Math.min(c.syndicatedCopies, matchParams.maxBucketCandidates);
  const claimsPerSecond = c.discoverySpreadS > 0 ? sim.pages / c.discoverySpreadS : fetchedPeak;
  const rows: LimitRow[] = [
    {
      what: "Hosts: the busiest host's item, writes",
      key: "an admission and a write as each request ends (host-pace-table.ts)",
      demand: sim.busiestHostPerSecond * 2,
      limit: AWS_LIMITS.partitionWcu,
      unit: "WCU/s",
    },
    {
      what: "Buckets: the syndicated story's band item, writes",
      key: `one item per band per copy; ${c.syndicatedCopies} copies share each band hash`,
      demand: copiesPeak * writeUnits(BAND_ITEM_BYTES),
      limit: AWS_LIMITS.partitionWcu,
      unit: "WCU/s",
    },
    {
      what: "Buckets: the syndicated story's band item, reads",
      key: `each copy queries the band (strongly consistent, up to ${matchParams.maxBucketCandidates} items)`,
      demand: copiesPeak * readUnits(candidates * BAND_ITEM_BYTES, "strong"),
      limit: AWS_LIMITS.partitionRcu,
      unit: "RCU/s",
    },
    {
      what: "Clusters: the syndicated story's partition, writes",
      key: "each copy: member + summary in a transaction, its outlet item",
      demand: copiesPeak * JOIN_WCU,
      limit: AWS_LIMITS.partitionWcu,
      unit: "WCU/s",
    },
    {
      what: "Clusters: the syndicated story's partition, reads",
      key: `each copy re-reads every outlet item for the tally (${c.syndicatedCopies} at the end)`,
      demand: copiesPeak * (readUnits(c.syndicatedCopies * OUTLET_ITEM_BYTES, "strong") + 1),
      limit: AWS_LIMITS.partitionRcu,
      unit: "RCU/s",
    },
    {
      what: "Articles by-day index: the day's partition",
      key: "every article of a day under one collected_day, sort key ascending time",
      demand: fetchedPeak * BY_DAY_ENTRY_WCU,
      limit: AWS_LIMITS.partitionWcu,
      unit: "WCU/s",
    },
    {
      what: "Frontier: whole table during discovery's claims",
      key: "one conditional put per URL (url_id keys spread evenly)",
      demand: claimsPerSecond,
      limit: AWS_LIMITS.onDemandWarmWru,
      unit: "WRU/s",
    },
  ];
  for (const [table, perSecond] of [
    ["articles", fetchedPeak],
    ["fingerprints", dedupPeak],
    ["buckets", dedupPeak],
    ["clusters", dedupPeak],
  ] as const) {
    rows.push({
      what: `${table[0]!.toUpperCase()}${table.slice(1)}: whole table at the peak`,
      key: `${t(table).wru.toFixed(1)} WRU per article (metered)`,
      demand: perSecond * t(table).wru,
      limit: AWS_LIMITS.onDemandWarmWru,
      unit: "WRU/s",
    });
  }
  const streamRecords = dedupPeak * CLUSTER_ITEMS_PER_ARTICLE;
  rows.push(
    {
      what: "Clusters stream: records a second",
      key: `${CLUSTER_ITEMS_PER_ARTICLE} item changes per article; shards ≥ ${Math.max(1, Math.ceil((dedupPeak * t("clusters").wru) / AWS_LIMITS.partitionWcu))} (one per partition)`,
      demand: streamRecords,
      limit:
        Math.max(1, Math.ceil((dedupPeak * t("clusters").wru) / AWS_LIMITS.partitionWcu)) *
        AWS_LIMITS.partitionWcu,
      unit: "records/s",
    },
    {
      what: "Fetch queue: messages in flight",
      key: "the batches' pages, and the pages that came early or were put back, until their slot",
      demand: sim.inFlightPeak,
      limit: AWS_LIMITS.inFlight,
      unit: "messages",
    },
    {
      what: "Fetch queue: the oldest message's age against its alarm",
      key: "the queue-age alarm (infra/topology.ts alarmAgeSeconds)",
      demand: sim.fetchMaxWaitS,
      limit: topology.queues.fetch.alarmAgeSeconds,
      unit: "s",
    },
    {
      what: "Fetch queue: SendMessageBatch a second",
      key: "discovery's sends, 10 a request (a standard queue: nearly unlimited)",
      demand: claimsPerSecond / AWS_LIMITS.sqsBatch,
      limit: AWS_LIMITS.standardTps,
      unit: "TPS",
    },
    {
      what: "Lambda: the account's concurrency",
      key: `fetch ${sim.peakConcurrency.fetch} + dedup ${sim.peakConcurrency.dedup} + others ${c.otherConcurrency}`,
      demand: sim.peakConcurrency.fetch + sim.peakConcurrency.dedup + c.otherConcurrency,
      limit: c.accountConcurrency,
      unit: "executions",
    },
  );
  return rows;
}
