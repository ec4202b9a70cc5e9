/**
 * The Buckets table (DedupStore's LSH index on DynamoDB, dedup-tables.ts): one item per band per article,
 * partition key the band key string (lsh.ts bandKeyString), sort key the article id, with its candidate
 * digest and `expires_at` (TTL). DynamoDB's TTL deletes days late, so an entry past its `expires_at` is
 * read as absent.
 */
import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { BucketHits } from "../dedup/dedup-store";
import { batchGet } from "./batch-get";
import { batchWrite } from "./batch-write";

/** An item past its `expires_at` (epoch seconds) at `nowSeconds`: gone, whether or not TTL deleted it yet. */
export function isExpired(item: Record<string, unknown> | undefined, nowSeconds: number): boolean {
  return typeof item?.expires_at === "number" && item.expires_at <= nowSeconds;
}

export class LshBucketsTable {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
    /** The band key string of a band key under the current layout. */
    private readonly bandKey: (key: number) => string,
    private readonly nowSeconds: () => number,
  ) {}

  async query(keys: readonly number[], limitPerBucket: number, consistent: boolean): Promise<BucketHits> {
    const now = this.nowSeconds();
    const lists = await Promise.all(
      keys.map(async (k) => {
        const out = await this.doc.send(
          new QueryCommand({
            TableName: this.table,
            KeyConditionExpression: "band_hash = :b",
            ExpressionAttributeValues: { ":b": this.bandKey(k) },
            ProjectionExpression: "article_id, digest, expires_at",
            ConsistentRead: consistent,
            Limit: limitPerBucket,
          }),
        );
        const items = out.Items ?? [];
        // Expired entries still count towards a full bucket: they take the query's places until TTL goes.
        return { k, items: items.filter((i) => !isExpired(i, now)), full: items.length >= limitPerBucket };
      }),
    );
    const ids = new Set<string>();
    const digests = new Map<string, Uint8Array>();
    for (const { items } of lists) {
      for (const item of items) {
        const id = String(item.article_id);
        ids.add(id);
        if (item.digest instanceof Uint8Array) digests.set(id, item.digest);
      }
    }
    return { ids: [...ids], digests, full: lists.filter((l) => l.full).map((l) => l.k) };
  }

  async add(
    keys: readonly number[],
    article_id: string,
    digest: Uint8Array,
    expires_at: number,
  ): Promise<void> {
    const puts = [...new Set(keys)].map((k) => ({
      PutRequest: { Item: { band_hash: this.bandKey(k), article_id, expires_at, digest } },
    }));
    await batchWrite(this.doc, this.table, puts);
  }

  /** Whether the article has an unexpired entry under any key expiring at `since` or later (epoch s). */
  async hasEntry(article_id: string, keys: readonly number[], since: number): Promise<boolean> {
    const now = this.nowSeconds();
    const found = await batchGet(
      this.doc,
      this.table,
      [...new Set(keys)].map((k) => ({ band_hash: this.bandKey(k), article_id })),
      { consistent: true, attributes: ["expires_at"] },
    );
    return found.some((i) => !isExpired(i, now) && Number(i.expires_at ?? Number.POSITIVE_INFINITY) >= since);
  }
}
