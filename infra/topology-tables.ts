/**
 * The tables of the topology (infra/topology.ts): keys, indexes, streams, and each one's lifecycle:
 * when its items expire, whether point-in-time recovery backs it up, and its table class, each with why.
 */
import { ARTICLES_BY_DAY_INDEX, type TableName } from "../shared/config/resource-names";

export type KeyType = "S" | "N";
export interface KeyAttr {
  readonly name: string;
  readonly type: KeyType;
}

/** A global secondary index projecting the key attributes plus `include`. */
export interface IndexSpec {
  readonly partitionKey: KeyAttr;
  readonly sortKey?: KeyAttr;
  readonly include: readonly string[];
}

/** The one TTL attribute every expiring table uses: epoch seconds, a Number. */
export const TTL_ATTRIBUTE = "expires_at";

/**
 * Standard or Standard-IA. IA bills storage at $0.10 a GB-month instead of $0.25 and requests 25 % more,
 * so it pays only when (days kept / 30) × GB stored per million articles > 1.67 × the table's request
 * USD per million articles. With the lifecycle's windows no table comes near (docs/benchmarks.md's
 * metered run, per million articles): articles 2.0 GB kept ~31 days vs $3.05 of requests (2.1 < 5.1),
 * fingerprints ~2.0 GB for 30 days vs $2.96 (2.0 < 4.9), clusters ~1.1 GB hot ~31 days vs $3.41, frontier
 * ~0.5 GB for 30 days vs $1.38 (IA from ~140 days), buckets ~1.5 GB for 30 days vs $6.34; hosts and
 * sources hold kilobytes. So every table is Standard.
 */
export type TableClass = "STANDARD" | "STANDARD_INFREQUENT_ACCESS";

/** Point-in-time recovery (AWS bills $0.20 a GB-month of table size): on only where the data cannot be
 * rebuilt from another table or the archive. */
export interface Backup {
  readonly pointInTimeRecovery: boolean;
  readonly reason: string;
}

export interface TableSpec {
  readonly partitionKey: KeyAttr;
  readonly sortKey?: KeyAttr;
  readonly indexes?: Readonly<Record<string, IndexSpec>>;
  /** DynamoDB Streams view; consumers read story clusters from it. */
  readonly stream?: "NEW_AND_OLD_IMAGES";
  /** Items with this attribute (epoch seconds) are deleted by DynamoDB once it has passed. */
  readonly timeToLiveAttribute?: typeof TTL_ATTRIBUTE;
  readonly backup: Backup;
  readonly tableClass: TableClass;
  readonly description: string;
}

export const tables: Readonly<Record<TableName, TableSpec>> = {
  articles: {
    partitionKey: { name: "article_id", type: "S" },
    indexes: {
      // The quality λ's daily read: one day's articles, ~150 bytes each, instead of a Scan of the
      // whole table (which grows every day). Costs one index write per article.
      [ARTICLES_BY_DAY_INDEX]: {
        partitionKey: { name: "collected_day", type: "S" },
        sortKey: { name: "collected_at", type: "S" },
        include: ["source_id", "word_count", "published_at"],
      },
    },
    // The hot window: set by the archive once the day that holds the article is current (DESIGN.md
    // invariant 6), never at write time.
    timeToLiveAttribute: TTL_ATTRIBUTE,
    backup: {
      pointInTimeRecovery: true,
      reason:
        "Until its day is archived, the only copy of an extraction: the page may have changed or gone by a re-fetch.",
    },
    tableClass: "STANDARD",
    description: "One item per canonical URL: the extracted article, as fetch wrote it.",
  },
  frontier: {
    partitionKey: { name: "url_id", type: "S" },
    // Each write, and a sighting by discovery past half the window, sets it to the Frontier retention
    // from then (STORYTRAIL_FRONTIER_RETENTION_DAYS, shared/config/crawl-settings.ts says why 30 days).
    timeToLiveAttribute: TTL_ATTRIBUTE,
    backup: {
      pointInTimeRecovery: true,
      reason:
        "The crawl's history: which URLs were claimed and fetched, and every failure's reason; lost, discovery would fetch every listed URL again.",
    },
    tableClass: "STANDARD",
    description: "Every discovered canonical URL: seen-before filter, fetch status and failure reason.",
  },
  sources: {
    partitionKey: { name: "source_id", type: "S" },
    backup: {
      pointInTimeRecovery: true,
      reason: "The sources' configuration, discovery marks and quality history: kilobytes, not rebuilt.",
    },
    tableClass: "STANDARD",
    description:
      "The sources: each one's config (storytrail sources push), discovery state and quality figures.",
  },
  hosts: {
    partitionKey: { name: "host", type: "S" },
    timeToLiveAttribute: TTL_ATTRIBUTE,
    backup: {
      pointInTimeRecovery: false,
      reason:
        "Pacing leases minutes long: an empty table only lets the next request to each host go at once.",
    },
    tableClass: "STANDARD",
    description:
      "Per-host pacing shared by discovery and every fetch Lambda: the earliest time of the next request.",
  },
  fingerprints: {
    // Dedup's own small item per article (~2 KB), apart from the article (~5 KB): its one write
    // (the claim) costs 2 write units instead of 6.
    partitionKey: { name: "article_id", type: "S" },
    // The LSH retention from the claim (STORYTRAIL_LSH_RETENTION_DAYS), as the article's bucket entries:
    // a fingerprint is read only through them.
    timeToLiveAttribute: TTL_ATTRIBUTE,
    backup: {
      pointInTimeRecovery: true,
      reason:
        "Each article's claim of a story: derivable in principle (the fingerprint from the body, the claim from the member item), but no command rebuilds it, and re-clustering would change story ids consumers hold.",
    },
    tableClass: "STANDARD",
    description:
      "The dedup index's articles: MinHash fingerprint and the cluster its claim chose, per article.",
  },
  buckets: {
    partitionKey: { name: "band_hash", type: "S" },
    sortKey: { name: "article_id", type: "S" },
    // Entries expire (STORYTRAIL_LSH_RETENTION_DAYS): the index's storage stays bounded.
    timeToLiveAttribute: TTL_ATTRIBUTE,
    backup: {
      pointInTimeRecovery: false,
      reason: "Derived: `storytrail refile-lsh` files the Fingerprints table's articles again.",
    },
    tableClass: "STANDARD",
    description: "LSH buckets: one item per band per article, keyed by band hash; entries expire.",
  },
  clusters: {
    partitionKey: { name: "cluster_id", type: "S" },
    sortKey: { name: "item", type: "S" },
    stream: "NEW_AND_OLD_IMAGES",
    // Member and outlet items: the hot window, set by the archive (as Articles); summaries of growing stories stay.
    timeToLiveAttribute: TTL_ATTRIBUTE,
    backup: {
      pointInTimeRecovery: true,
      reason:
        "The stories consumers hold by id: re-clustering from the articles would find the same stories under other ids and re-send them all on the stream.",
    },
    tableClass: "STANDARD",
    description: "Story clusters: a summary item and one member item per article. Streamed to consumers.",
  },
};
