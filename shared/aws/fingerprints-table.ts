/**
 * The Fingerprints table's claims (DedupStore on DynamoDB, dedup-tables.ts): one item per article
 * (fingerprint-item.ts), put once by the article's claim with `expires_at` (TTL: the LSH retention from
 * the claim). DynamoDB's TTL deletes days late, so a claim past its `expires_at` is read as absent, and a
 * new claim of the article writes over it.
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { DedupConflictError, type IndexedArticle } from "../dedup/dedup-store";
import { batchGet } from "./batch-get";
import { isConditionalCheckFailure } from "./conditional-check";
import { indexedFromItem, itemFromIndexed } from "./fingerprint-item";
import { isExpired } from "./lsh-buckets-table";

export class FingerprintsTable {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly nowSeconds: () => number,
  ) {}

  /** The article of a fingerprint item, null when there is none or it expired. */
  private articleOf(item: Record<string, unknown> | undefined): IndexedArticle | null {
    return isExpired(item, this.nowSeconds()) ? null : indexedFromItem(item);
  }

  async get(article_id: string): Promise<IndexedArticle | null> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.table, Key: { article_id }, ConsistentRead: true }),
    );
    return this.articleOf(out.Item);
  }

  async getMany(article_ids: readonly string[]): Promise<IndexedArticle[]> {
    const keys = [...new Set(article_ids)].map((article_id) => ({ article_id }));
    const items = await batchGet(this.doc, this.table, keys, { consistent: true });
    return items.flatMap((item) => this.articleOf(item) ?? []);
  }

  /** Puts the claim, expiring at `expires_at`, on `condition`; the stored claim when that fails. */
  private async put(
    a: IndexedArticle,
    expires_at: number,
    condition: string,
    values: Record<string, unknown>,
  ): Promise<IndexedArticle> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...itemFromIndexed(a), expires_at },
          ConditionExpression: condition,
          ExpressionAttributeValues: values,
        }),
      );
      return { ...a, expires_at };
    } catch (err) {
      if (!isConditionalCheckFailure(err)) throw err;
    }
    const stored = await this.get(a.article_id);
    // Expired between the condition and the read: the retry claims it afresh.
    if (!stored) throw new DedupConflictError(`fingerprint item of ${a.article_id} expired meanwhile`);
    return stored;
  }

  /** The first claim of the article (an expired one is none: the article is new again). */
  claim(a: IndexedArticle, expires_at: number): Promise<IndexedArticle> {
    return this.put(a, expires_at, "attribute_not_exists(article_id) OR expires_at <= :now", {
      ":now": this.nowSeconds(),
    });
  }

  /** Replaces the claim while it names `from` (DedupStore.reclaimArticle). */
  reclaim(a: IndexedArticle, from: string, expires_at: number): Promise<IndexedArticle> {
    // Items written before first_cluster_id named their cluster cluster_id (fingerprint-item.ts).
    return this.put(
      a,
      expires_at,
      "first_cluster_id = :from OR (attribute_not_exists(first_cluster_id) AND cluster_id = :from)",
      { ":from": from },
    );
  }
}
