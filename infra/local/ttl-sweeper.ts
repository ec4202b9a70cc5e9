/**
 * DynamoDB's Time to Live, emulated for a local run: DynamoDB Local keeps the `timeToLiveAttribute` of
 * a table but never deletes by it. `sweepExpired` deletes, in every table whose topology spec has a TTL
 * attribute, the items whose attribute (epoch seconds, a Number) is at or before `now`, the run's clock
 * (never the wall clock: a replay at STORYTRAIL_NOW or `demo --at` expires what that day would). As on
 * AWS, a value that is not a Number, or more than five years in the past, is ignored. The deletes of a
 * streamed table (Clusters) are noted first in the TtlDeletionLog, so that the stream driver gives
 * their REMOVE records the userIdentity AWS gives a TTL deletion; a consumer and `storytrail tail` see
 * an expiry, not a removal. Each delete is conditional on the item still being expired (an item given
 * a later expiry meanwhile stays). `crawl` and `demo` sweep at a run's start, after the clock is set
 * (LocalRuntime.sweepExpired). Measured
 * 2026-12-06 (load average 25 on 2 shared cores): 5,000 of 10,000 Clusters items expired, swept in 17 s
 * (3.4 ms an item, the scan included); the stream's 15,000 records then read, 5,000 stamped, in 1.9 s.
 */
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, paginateScan } from "@aws-sdk/lib-dynamodb";
import type { AwsClients } from "../../shared/aws/clients";
import { type TableName, type TableSpec, topology } from "../topology";
import type { TtlDeletionLog } from "./ttl-deletions";

/** AWS: "items with an expiration time more than five years in the past" are not deleted by TTL. */
export const IGNORED_AFTER_SECONDS = 5 * 365 * 86_400;

/** Deletes in flight at once, from one scanned page (as many as a BatchWriteItem holds, near enough). */
const DELETE_CONCURRENCY = 16;

/** What a sweep deleted, per table (tables with nothing expired are left out). */
export type SweepCounts = Partial<Record<TableName, number>>;

function keyOf(spec: TableSpec, item: Record<string, unknown>): Record<string, unknown> {
  const key: Record<string, unknown> = { [spec.partitionKey.name]: item[spec.partitionKey.name] };
  if (spec.sortKey) key[spec.sortKey.name] = item[spec.sortKey.name];
  return key;
}

async function deleteExpired(
  doc: AwsClients["doc"],
  table: string,
  spec: TableSpec,
  ttl: string,
  item: Record<string, unknown>,
  nowSeconds: number,
): Promise<boolean> {
  try {
    await doc.send(
      new DeleteCommand({
        TableName: table,
        Key: keyOf(spec, item),
        ConditionExpression: "#ttl <= :now",
        ExpressionAttributeNames: { "#ttl": ttl },
        ExpressionAttributeValues: { ":now": nowSeconds },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

export async function sweepExpired(
  clients: Pick<AwsClients, "doc">,
  tables: Readonly<Record<TableName, string>>,
  log: TtlDeletionLog,
  now: Date,
): Promise<SweepCounts> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const counts: SweepCounts = {};
  // The tables at once: a run's sweep is a scan of each, and the LSH tables grow for their 30 days
  // (bench --only days: 0.3 s on day 2, 2-3 s by day 15 one table after another).
  const swept = (Object.entries(topology.tables) as [TableName, TableSpec][]).map(async ([name, spec]) => {
    const ttl = spec.timeToLiveAttribute;
    if (!ttl) return;
    const keys = [spec.partitionKey.name, ...(spec.sortKey ? [spec.sortKey.name] : [])];
    const pages = paginateScan(
      { client: clients.doc },
      {
        TableName: tables[name],
        FilterExpression: "#ttl BETWEEN :oldest AND :now",
        ProjectionExpression: [...keys, ttl].map((_, i) => `#p${i}`).join(", "),
        ExpressionAttributeNames: {
          "#ttl": ttl,
          ...Object.fromEntries([...keys, ttl].map((k, i) => [`#p${i}`, k])),
        },
        ExpressionAttributeValues: { ":oldest": nowSeconds - IGNORED_AFTER_SECONDS, ":now": nowSeconds },
      },
    );
    let deleted = 0;
    for await (const page of pages) {
      const items = page.Items ?? [];
      if (spec.stream) await log.record(tables[name], spec, items, now);
      for (let i = 0; i < items.length; i += DELETE_CONCURRENCY) {
        const done = await Promise.all(
          items
            .slice(i, i + DELETE_CONCURRENCY)
            .map((item) => deleteExpired(clients.doc, tables[name], spec, ttl, item, nowSeconds)),
        );
        deleted += done.filter(Boolean).length;
      }
    }
    if (deleted > 0) counts[name] = deleted;
  });
  await Promise.all(swept);
  return counts;
}
