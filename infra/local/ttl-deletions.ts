/**
 * The local runtime's record of the items its TTL sweep deleted (ttl-sweeper.ts), so that their REMOVE
 * records on DynamoDB Local's stream, which carry no userIdentity, can be stamped with the one AWS puts
 * on a TTL deletion. An entry is the item's table and key with the `expires_at` it was deleted for; a
 * REMOVE whose keys and old image's TTL value match one is that deletion. The entry is written before
 * the item is deleted, so a reader following the stream at that moment (`storytrail tail` attached to
 * a crawl) never sees the REMOVE unstamped. It lives in DynamoDB Local beside the run's tables (a table
 * of its own, not in the topology: AWS has no such thing), so a later `tail` on the run's folder reads
 * it too. Entries stay as long as the folder: one small item per expired item.
 */
import {
  CreateTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import type { _Record } from "@aws-sdk/client-dynamodb-streams";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { batchGet } from "../../shared/aws/batch-get";
import { batchWrite } from "../../shared/aws/batch-write";
import type { AwsClients } from "../../shared/aws/clients";
import type { TableSpec } from "../topology";
import type { TtlDeletionLookup } from "./stream-driver";

/** The ledger table of a runtime whose tables have this prefix. */
export const ttlDeletionsTable = (prefix: string): string => `${prefix}local-ttl-deletions`;

/** A table's items are recognised by their key values, in key-schema order, under the table's name. */
function entryKey(table: string, spec: TableSpec, item: Readonly<Record<string, unknown>>): string {
  const names = [spec.partitionKey.name, ...(spec.sortKey ? [spec.sortKey.name] : [])];
  return JSON.stringify([table, ...names.map((n) => item[n])]);
}

export class TtlDeletionLog {
  constructor(
    private readonly clients: Pick<AwsClients, "dynamo" | "doc">,
    readonly tableName: string,
  ) {}

  /** Notes items about to be deleted for their TTL (each with its key and its TTL attribute). */
  async record(
    table: string,
    spec: TableSpec,
    items: readonly Readonly<Record<string, unknown>>[],
    deletedAt: Date,
  ): Promise<void> {
    const ttl = spec.timeToLiveAttribute;
    if (!ttl || items.length === 0) return;
    await this.create();
    await batchWrite(
      this.clients.doc,
      this.tableName,
      items.map((item) => ({
        PutRequest: {
          Item: {
            item_key: entryKey(table, spec, item),
            expires_at: item[ttl],
            deleted_at: deletedAt.toISOString(),
          },
        },
      })),
    );
  }

  /**
   * The SequenceNumbers of the stream records (of `table`'s stream) that are REMOVEs the sweep made:
   * the item's keys and its old image's TTL value are in the ledger. Empty when nothing was ever swept.
   */
  private async deletions(table: string, spec: TableSpec, records: readonly _Record[]): Promise<Set<string>> {
    const ttl = spec.timeToLiveAttribute;
    const found = new Set<string>();
    if (!ttl) return found;
    const candidates = new Map<string, { key: string; expiresAt: number; sequences: string[] }>();
    for (const r of records) {
      const d = r.dynamodb;
      if (r.eventName !== "REMOVE" || !d?.Keys || !d.OldImage || !d.SequenceNumber) continue;
      const expiresAt = unmarshall(d.OldImage as never)[ttl];
      if (typeof expiresAt !== "number") continue;
      const key = entryKey(table, spec, unmarshall(d.Keys as never));
      const id = `${key}\u0000${expiresAt}`;
      const c = candidates.get(id) ?? { key, expiresAt, sequences: [] };
      c.sequences.push(d.SequenceNumber);
      candidates.set(id, c);
    }
    let entries: Record<string, unknown>[];
    try {
      entries = await batchGet(
        this.clients.doc,
        this.tableName,
        [...candidates.values()].map((c) => ({ item_key: c.key, expires_at: c.expiresAt })),
      );
    } catch (err) {
      // No ledger table: nothing was ever swept.
      if (err instanceof ResourceNotFoundException) return found;
      throw err;
    }
    for (const e of entries)
      for (const seq of candidates.get(`${e.item_key}\u0000${e.expires_at}`)?.sequences ?? []) found.add(seq);
    return found;
  }

  /** `deletions` for one table's stream, as the stream driver takes it. */
  lookup(table: string, spec: TableSpec): TtlDeletionLookup {
    return (records) => this.deletions(table, spec, records);
  }

  private async create(): Promise<void> {
    try {
      await this.clients.dynamo.send(
        new CreateTableCommand({
          TableName: this.tableName,
          KeySchema: [
            { AttributeName: "item_key", KeyType: "HASH" },
            { AttributeName: "expires_at", KeyType: "RANGE" },
          ],
          AttributeDefinitions: [
            { AttributeName: "item_key", AttributeType: "S" },
            { AttributeName: "expires_at", AttributeType: "N" },
          ],
          BillingMode: "PAY_PER_REQUEST",
        }),
      );
    } catch (err) {
      if (!(err instanceof ResourceInUseException)) throw err;
    }
    await waitUntilTableExists(
      { client: this.clients.dynamo, maxWaitTime: 30 },
      { TableName: this.tableName },
    );
  }
}
