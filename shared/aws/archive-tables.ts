/**
 * The archive's view of the hot tables (DynamoDB adapter of `ArchiveSource`): a day's articles through
 * the by-day index, each article's story through its Fingerprints claim and the Clusters summaries'
 * `merged_into`, a story's items, and the hot window's `expires_at`.
 */
import { type DynamoDBDocumentClient, paginateQuery, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { inBatches } from "../archive/in-batches";
import type { ArchiveSource, CollectedRange } from "../archive/ports";
import { ARTICLES_BY_DAY_INDEX } from "../config/resource-names";
import { batchGet } from "./batch-get";
import { isConditionalCheckFailure } from "./conditional-check";

/** A merge chain longer than this is a broken chain (a summary naming itself): the article has no story. */
const MAX_MERGE_HOPS = 50;
/** Updates in flight at once. */
const UPDATES_AT_ONCE = 16;

/** A page's index items without those at the range's exclusive end (BETWEEN included them). */
const inRange = (items: readonly Record<string, unknown>[] | undefined, range: CollectedRange | undefined) =>
  (items ?? []).filter((i) => range?.to == null || String(i.collected_at) < range.to);

export interface ArchiveTableNames {
  readonly articles: string;
  readonly fingerprints: string;
  readonly clusters: string;
}

export class DynamoArchiveSource implements ArchiveSource {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: ArchiveTableNames,
  ) {}

  async *dayArticles(day: string, range?: CollectedRange): AsyncIterable<readonly Record<string, unknown>[]> {
    for await (const page of this.dayQuery(day, range, {
      ProjectionExpression: "article_id, collected_at",
    })) {
      const ids = inRange(page.Items, range).map((i) => String(i.article_id));
      if (ids.length > 0) {
        // BatchGetItem answers in any order: the index's order (collected_at) is kept for the files.
        const items = await batchGet(
          this.doc,
          this.tables.articles,
          ids.map((article_id) => ({ article_id })),
        );
        const byId = new Map(items.map((i) => [String(i.article_id), i]));
        yield ids.flatMap((id): Record<string, unknown>[] => {
          const item = byId.get(id);
          return item ? [item] : [];
        });
      }
    }
  }

  async countDay(day: string, range?: CollectedRange): Promise<number> {
    let n = 0;
    for await (const page of this.dayQuery(day, range, { Select: "COUNT" })) n += page.Count ?? 0;
    return n;
  }

  async *collectedAts(day: string, range: CollectedRange): AsyncIterable<readonly string[]> {
    for await (const page of this.dayQuery(day, range, { ProjectionExpression: "collected_at" }))
      yield inRange(page.Items, range).map((i) => String(i.collected_at));
  }

  /** The by-day index's pages of `day` (in `range`), reading what `read` asks for (keys, or the count). */
  private dayQuery(
    day: string,
    range: CollectedRange | undefined,
    read: { ProjectionExpression: string } | { Select: "COUNT" },
  ) {
    // One condition on a sort key: both ends are BETWEEN, which includes `to` (inRange drops it).
    const from = range?.from ?? null;
    const to = range?.to ?? null;
    const sortKey =
      from !== null && to !== null
        ? " AND collected_at BETWEEN :f AND :t"
        : from !== null
          ? " AND collected_at >= :f"
          : to !== null
            ? " AND collected_at < :t"
            : "";
    return paginateQuery(
      { client: this.doc },
      {
        TableName: this.tables.articles,
        IndexName: ARTICLES_BY_DAY_INDEX,
        KeyConditionExpression: `collected_day = :d${sortKey}`,
        ExpressionAttributeValues: {
          ":d": day,
          ...(from !== null && sortKey.includes(":f") ? { ":f": from } : {}),
          ...(to !== null && sortKey.includes(":t") ? { ":t": to } : {}),
        },
        ...read,
      },
    );
  }

  async storyIds(articleIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const claims = await batchGet(
      this.doc,
      this.tables.fingerprints,
      articleIds.map((article_id) => ({ article_id })),
      { attributes: ["article_id", "first_cluster_id", "cluster_id"] },
    );
    const claimed = new Map<string, string>();
    for (const c of claims) {
      const id = c.first_cluster_id ?? c.cluster_id;
      if (typeof id === "string") claimed.set(String(c.article_id), id);
    }
    // Follow merged_into, one level of summaries at a time; a cluster without a summary has no story yet.
    const live = new Map<string, string>();
    const at = new Map([...new Set(claimed.values())].map((id) => [id, id]));
    for (let hop = 0; at.size > 0 && hop < MAX_MERGE_HOPS; hop++) {
      const summaries = await batchGet(
        this.doc,
        this.tables.clusters,
        [...new Set(at.values())].map((cluster_id) => ({ cluster_id, item: "summary" })),
        { attributes: ["cluster_id", "merged_into"] },
      );
      const into = new Map(summaries.map((s) => [String(s.cluster_id), s.merged_into]));
      for (const [start, current] of at) {
        const merged = into.get(current);
        if (!into.has(current)) at.delete(start);
        else if (typeof merged === "string" && merged) at.set(start, merged);
        else {
          live.set(start, current);
          at.delete(start);
        }
      }
    }
    const out = new Map<string, string>();
    for (const [article, cluster] of claimed) {
      const story = live.get(cluster);
      if (story) out.set(article, story);
    }
    return out;
  }

  async storyItems(storyId: string): Promise<readonly Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    const pages = paginateQuery(
      { client: this.doc },
      {
        TableName: this.tables.clusters,
        KeyConditionExpression: "cluster_id = :c",
        ExpressionAttributeValues: { ":c": storyId },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    return items;
  }

  async expireArticles(expiry: readonly { articleId: string; expiresAt: number }[]): Promise<void> {
    await inBatches(expiry, UPDATES_AT_ONCE, (e) =>
      this.setExpiry(this.tables.articles, { article_id: e.articleId }, e.expiresAt, "article_id"),
    );
  }

  async expireStoryItems(storyId: string, items: readonly string[], expiresAt: number): Promise<void> {
    await inBatches(items, UPDATES_AT_ONCE, (item) =>
      this.setExpiry(this.tables.clusters, { cluster_id: storyId, item }, expiresAt, "cluster_id"),
    );
  }

  /** Sets expires_at on an existing item, never earlier than it already is (a story's later day may have pushed it). */
  private async setExpiry(table: string, key: Record<string, string>, expiresAt: number, keyAttr: string) {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: table,
          Key: key,
          UpdateExpression: "SET expires_at = :e",
          ConditionExpression:
            "attribute_exists(#k) AND (attribute_not_exists(expires_at) OR expires_at < :e)",
          ExpressionAttributeNames: { "#k": keyAttr },
          ExpressionAttributeValues: { ":e": expiresAt },
        }),
      );
    } catch (err) {
      // Gone (a merge moved a member) or already later: nothing to do.
      if (!isConditionalCheckFailure(err)) throw err;
    }
  }
}
