/**
 * DedupStore on DynamoDB: per article, one item in the Fingerprints table (fingerprint-item.ts,
 * fingerprints-table.ts), the fingerprint (~1.7 KB) written once by the article's claim, which names the
 * cluster it went to; LSH buckets in the Buckets table (lsh-buckets-table.ts: one item per band per
 * article, partition key = band hash), and clusters
 * in the Clusters table (summary, member and outlet items). No story state per article (DedupStore
 * StoryStates): an article's story is its claim's cluster followed through merged_into, and a redelivery
 * re-runs the clusterer's idempotent steps. Reads that decide a write are strongly consistent; version
 * conditions turn lost updates into DedupConflictError (the caller re-runs the idempotent addArticle).
 * Joining, merging and moving a member are transactions; founding a cluster is an ordered pair of plain
 * writes (member, then summary on condition that none exists), safe to repeat. TTL deletes days late: an
 * item past its `expires_at` (the store's clock) is read as absent and may be written over by a claim or
 * a founding (DedupStore).
 */
import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { DEFAULT_LSH_RETENTION_DAYS } from "../config/crawl-settings";
import { tenthCarriedAt } from "../dedup/cluster-summary";
import {
  type BucketHits,
  DedupConflictError,
  type DedupStore,
  type IndexedArticle,
  type OutletSighting,
  type OutletTally,
} from "../dedup/dedup-store";
import { bandKeyString } from "../dedup/lsh";
import { fingerprintParams, matchParams } from "../dedup/params";
import { type ArticleRevision, type ClusterMember, type ClusterSummary, RECORD_VERSION } from "../records";
import { batchWrite, chunks } from "./batch-write";
import { isConditionalCheckFailure } from "./conditional-check";
import { FingerprintsTable } from "./fingerprints-table";
import { isExpired, LshBucketsTable } from "./lsh-buckets-table";

export interface DedupTableNames {
  readonly fingerprints: string;
  readonly buckets: string;
  readonly clusters: string;
}

export interface DedupTableOptions {
  /** Days an article's bucket entries and its fingerprint item are kept (DynamoDB TTL, from their write):
   * copies found later than this found their own story. */
  readonly lshRetentionDays?: number;
  /** The clock the TTL counts from: the functions' clock, which a local run's expiry emulation reads too. */
  readonly nowMs?: () => number;
}

const SUMMARY = "summary";
const memberKey = (article_id: string) => `member#${article_id}`;
const outletKey = (source_id: string) => `outlet#${source_id}`;

/** A retired summary outlives the claims that name it (they expire the LSH retention after their write)
 * by this much: a claim that read the story live just before the merge retired it is written after the
 * retire, by at most an invocation (minutes); a day covers it. */
const RETIRED_SLACK_SECONDS = 86_400;

const p = fingerprintParams;
const PARAMS_KEY = `${p.shingleSize}:${p.numPerm}:${p.seed}:${p.sketchSize}`;

function cancellationCodes(err: unknown): string[] | null {
  if (!(err instanceof TransactionCanceledException)) return null;
  return (err.CancellationReasons ?? []).map((r) => r.Code ?? "None");
}

export class DynamoDedupStore implements DedupStore {
  private readonly layout = { bands: matchParams.bands, rows: matchParams.rows, paramsKey: PARAMS_KEY };
  private readonly retentionSeconds: number;
  private readonly nowMs: () => number;
  private readonly buckets: LshBucketsTable;
  private readonly fingerprints: FingerprintsTable;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: DedupTableNames,
    options: DedupTableOptions = {},
  ) {
    this.retentionSeconds = (options.lshRetentionDays ?? DEFAULT_LSH_RETENTION_DAYS) * 86_400;
    this.nowMs = options.nowMs ?? Date.now;
    this.buckets = new LshBucketsTable(
      doc,
      tables.buckets,
      (k) => this.bandKey(k),
      () => this.nowSeconds(),
    );
    this.fingerprints = new FingerprintsTable(doc, tables.fingerprints, () => this.nowSeconds());
  }

  private nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** Epoch seconds (DynamoDB TTL) at which an item written now expires. */
  private expiresAt(): number {
    return this.nowSeconds() + this.retentionSeconds;
  }

  private bandKey(key: number): string {
    return bandKeyString(key, this.layout.bands, this.layout.rows, this.layout.paramsKey);
  }

  getArticle(article_id: string): Promise<IndexedArticle | null> {
    return this.fingerprints.get(article_id);
  }

  getArticles(article_ids: readonly string[]): Promise<IndexedArticle[]> {
    return this.fingerprints.getMany(article_ids);
  }

  claimArticle(a: IndexedArticle): Promise<IndexedArticle> {
    return this.fingerprints.claim(a, this.expiresAt());
  }

  reclaimArticle(a: IndexedArticle, from: string): Promise<IndexedArticle> {
    return this.fingerprints.reclaim(a, from, this.expiresAt());
  }

  async queryBuckets(
    keys: readonly number[],
    limitPerBucket: number,
    opts: { consistent?: boolean } = {},
  ): Promise<BucketHits> {
    return this.buckets.query(keys, limitPerBucket, opts.consistent ?? true);
  }

  async addToBuckets(
    keys: readonly number[],
    article_id: string,
    digest: Uint8Array,
    expiresAt?: number,
  ): Promise<void> {
    await this.buckets.add(keys, article_id, digest, expiresAt ?? this.expiresAt());
  }

  async isFiled(claim: IndexedArticle, keys: readonly number[]): Promise<boolean> {
    // Entries filed for this claim expire no earlier than it; an earlier claim's (before a re-claim or an
    // expiry) expire sooner.
    return this.buckets.hasEntry(claim.article_id, keys, claim.expires_at ?? 0);
  }

  async getCluster(cluster_id: string): Promise<ClusterSummary | null> {
    const out = await this.doc.send(
      new GetCommand({
        TableName: this.tables.clusters,
        Key: { cluster_id, item: SUMMARY },
        ConsistentRead: true,
      }),
    );
    return isExpired(out.Item, this.nowSeconds()) ? null : ((out.Item as ClusterSummary | undefined) ?? null);
  }

  /**
   * The summary as dedup writes it, with its `expires_at`. A live summary the archive gave one keeps it,
   * at least the LSH retention from now (the claim that changed it names it that long; the archive moves
   * it later once the story's new day is archived); one without (not archived yet) gets none. A retired
   * summary is never archived again, and is kept as long as a claim may name it (RETIRED_SLACK_SECONDS).
   */
  private summaryItem(s: ClusterSummary): Record<string, unknown> {
    const { expires_at: old, ...rest } = s as ClusterSummary & { expires_at?: unknown };
    if (s.merged_into)
      return { ...rest, expires_at: Math.max(Number(old ?? 0), this.expiresAt() + RETIRED_SLACK_SECONDS) };
    return typeof old === "number" ? { ...rest, expires_at: Math.max(old, this.expiresAt()) } : rest;
  }

  async getMember(cluster_id: string, article_id: string): Promise<ClusterMember | null> {
    const out = await this.doc.send(
      new GetCommand({
        TableName: this.tables.clusters,
        Key: { cluster_id, item: memberKey(article_id) },
        ConsistentRead: true,
      }),
    );
    return (out.Item as ClusterMember | undefined) ?? null;
  }

  /** Pages of the items in one cluster's partition whose sort key starts with `prefix`. */
  private queryPages(cluster_id: string, prefix: string) {
    return paginateQuery(
      { client: this.doc },
      {
        TableName: this.tables.clusters,
        KeyConditionExpression: "cluster_id = :c AND begins_with(#i, :p)",
        ExpressionAttributeNames: { "#i": "item" },
        ExpressionAttributeValues: { ":c": cluster_id, ":p": prefix },
        ConsistentRead: true,
      },
    );
  }

  private async *queryPrefix(cluster_id: string, prefix: string): AsyncGenerator<Record<string, unknown>> {
    for await (const page of this.queryPages(cluster_id, prefix)) yield* page.Items ?? [];
  }

  async *listMembers(cluster_id: string): AsyncIterable<ClusterMember> {
    for await (const item of this.queryPrefix(cluster_id, "member#")) yield item as ClusterMember;
  }

  async *listOutlets(cluster_id: string): AsyncIterable<OutletSighting> {
    for await (const item of this.queryPrefix(cluster_id, "outlet#")) {
      yield {
        source_id: String(item.source_id),
        publication: String(item.publication),
        carried_at: String(item.carried_at),
      };
    }
  }

  async removeOutlets(cluster_id: string, source_ids: readonly string[]): Promise<void> {
    await batchWrite(
      this.doc,
      this.tables.clusters,
      source_ids.map((id) => ({ DeleteRequest: { Key: { cluster_id, item: outletKey(id) } } })),
    );
  }

  private summaryPut(s: ClusterSummary, expectedRevision: number | null) {
    return {
      Put: {
        TableName: this.tables.clusters,
        Item: this.summaryItem(s),
        ConditionExpression: expectedRevision === null ? "attribute_not_exists(cluster_id)" : "revision = :v",
        ...(expectedRevision === null ? {} : { ExpressionAttributeValues: { ":v": expectedRevision } }),
      },
    };
  }

  private async transact(items: Record<string, unknown>[], what: string): Promise<string[] | null> {
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems: items as never }));
      return null;
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes.includes("ConditionalCheckFailed")) return codes;
      // TransactionConflict (another transaction on the same items) is a lost race, too.
      if (codes.includes("TransactionConflict"))
        throw new DedupConflictError(`${what}: transaction conflict`);
      throw err;
    }
  }

  async reviseMember(
    cluster_id: string,
    article_id: string,
    revision: ArticleRevision,
  ): Promise<"revised" | "current" | "missing"> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tables.clusters,
          Key: { cluster_id, item: memberKey(article_id) },
          UpdateExpression: "SET #r = :r",
          ConditionExpression:
            "attribute_exists(cluster_id) AND (attribute_not_exists(#r) OR #r = :null OR #r.#n < :n)",
          ExpressionAttributeNames: { "#r": "latest_revision", "#n": "number" },
          ExpressionAttributeValues: { ":r": revision, ":n": revision.number, ":null": null },
        }),
      );
      return "revised";
    } catch (err) {
      if (!isConditionalCheckFailure(err)) throw err;
      // The failed condition does not say which half: a read does (rare, a repeated delivery).
      return (await this.getMember(cluster_id, article_id)) ? "current" : "missing";
    }
  }

  async createCluster(summary: ClusterSummary, member: ClusterMember): Promise<void> {
    // Two plain writes (2 WRU) where a transaction costs 4; why that is safe: DedupStore.createCluster.
    await this.doc.send(new PutCommand({ TableName: this.tables.clusters, Item: member }));
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tables.clusters,
          Item: this.summaryItem(summary),
          // An expired story's summary (TTL not run yet) is no story: its founder founds it again.
          ConditionExpression: "attribute_not_exists(cluster_id) OR expires_at <= :now",
          ExpressionAttributeValues: { ":now": this.nowSeconds() },
        }),
      );
    } catch (err) {
      if (!isConditionalCheckFailure(err)) throw err;
      throw new DedupConflictError(`cluster ${summary.cluster_id} already exists`);
    }
  }

  async joinCluster(
    summary: ClusterSummary,
    expectedRevision: number,
    member: ClusterMember,
  ): Promise<boolean> {
    const failed = await this.transact(
      [
        {
          Put: {
            TableName: this.tables.clusters,
            Item: member,
            ConditionExpression: "attribute_not_exists(cluster_id)",
          },
        },
        this.summaryPut(summary, expectedRevision),
      ],
      `join ${summary.cluster_id}`,
    );
    if (!failed) return true;
    if (failed[0] === "ConditionalCheckFailed") return false;
    throw new DedupConflictError(`cluster ${summary.cluster_id}: revision is not ${expectedRevision}`);
  }

  async retireCluster(
    loser: ClusterSummary,
    loserExpectedRevision: number,
    winner: ClusterSummary,
    winnerExpectedRevision: number,
  ): Promise<void> {
    const failed = await this.transact(
      [this.summaryPut(loser, loserExpectedRevision), this.summaryPut(winner, winnerExpectedRevision)],
      `merge ${loser.cluster_id} into ${winner.cluster_id}`,
    );
    if (failed)
      throw new DedupConflictError(`merge ${loser.cluster_id} into ${winner.cluster_id}: revision moved`);
  }

  async moveMember(member: ClusterMember, fromCluster: string): Promise<void> {
    await this.transact(
      [
        { Put: { TableName: this.tables.clusters, Item: { ...member, item: memberKey(member.article_id) } } },
        {
          Delete: {
            TableName: this.tables.clusters,
            Key: { cluster_id: fromCluster, item: memberKey(member.article_id) },
          },
        },
      ],
      `move ${member.article_id}`,
    );
  }

  async keepOutlets(cluster_id: string, sightings: readonly OutletSighting[]): Promise<void> {
    // One conditional update per outlet keeps its earliest carried_at: commutative, so concurrent
    // copies agree whatever their order. A failed condition means an earlier time is already there.
    for (const batch of chunks(sightings, 25)) {
      await Promise.all(batch.map((o) => this.keepEarliest(cluster_id, o)));
    }
  }

  async addOutlets(cluster_id: string, sightings: readonly OutletSighting[]): Promise<OutletTally> {
    await this.keepOutlets(cluster_id, sightings);
    // The tally reads every outlet item; a COUNT query would read (and bill) the same items.
    const times: string[] = [];
    for await (const o of this.listOutlets(cluster_id)) times.push(o.carried_at);
    return { count: times.length, tenthAt: tenthCarriedAt(times) };
  }

  private async keepEarliest(cluster_id: string, o: OutletSighting): Promise<void> {
    // carried_at is a millisecond UTC instant (records.ts `instant`), so text order is time order. An
    // expired sighting (TTL not run yet) is none; a sighting written is not archived yet: no expiry
    // until the archive holds it (it sets one on the story's items then).
    const command = new UpdateCommand({
      TableName: this.tables.clusters,
      Key: { cluster_id, item: outletKey(o.source_id) },
      UpdateExpression: "SET #v = :v, #t = :t, #s = :s, #p = :p, carried_at = :a REMOVE expires_at",
      ConditionExpression: "attribute_not_exists(carried_at) OR carried_at > :a OR expires_at <= :now",
      ExpressionAttributeNames: {
        "#v": "record_version",
        "#t": "record_type",
        "#s": "source_id",
        "#p": "publication",
      },
      ExpressionAttributeValues: {
        ":v": RECORD_VERSION,
        ":t": "outlet",
        ":s": o.source_id,
        ":p": o.publication,
        ":a": o.carried_at,
        ":now": this.nowSeconds(),
      },
    });
    await this.doc.send(command).catch((err: unknown) => {
      if (!isConditionalCheckFailure(err)) throw err;
    });
  }
}
