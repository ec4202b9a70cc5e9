/**
 * The archive's lease on a day (adapter of `DayLease`): one item in the Hosts table, the system's table of
 * leases, keyed `archive#dt=YYYY-MM-DD` (a `#` is never in a host name). Taken on condition that nobody
 * holds it or that its holder's time ran out (a run that died frees it at its function's timeout);
 * `expires_at` lets the table's TTL remove it a day later.
 */
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { DayLease } from "../archive/ports";
import { isConditionalCheckFailure } from "./conditional-check";

const leaseKey = (day: string) => ({ host: `archive#dt=${day}` });

export class DayLeaseItem implements DayLease {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async acquire(day: string, runId: string, now: Date, until: Date): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...leaseKey(day),
            run_id: runId,
            lease_until: until.getTime(),
            expires_at: Math.floor(until.getTime() / 1000) + 86_400,
          },
          ConditionExpression: "attribute_not_exists(host) OR lease_until < :now",
          ExpressionAttributeValues: { ":now": now.getTime() },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionalCheckFailure(err)) return false;
      throw err;
    }
  }

  async release(day: string, runId: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: leaseKey(day),
          ConditionExpression: "run_id = :r",
          ExpressionAttributeValues: { ":r": runId },
        }),
      );
    } catch (err) {
      // Taken over after this run's time ran out: the lease is the other run's now.
      if (!isConditionalCheckFailure(err)) throw err;
    }
  }
}
