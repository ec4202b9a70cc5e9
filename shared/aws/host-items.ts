/**
 * The Hosts table's items as the pacer (host-pace-table.ts) reads and writes them: a consistent read, and
 * the conditional writes that make a reservation hold only when nobody else's came first (the item's
 * version `v` for taking the host, `scheduled_until` for reserving slots). Every write also moves the
 * item's TTL, so idle hosts leave the table.
 */
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionalCheckFailure } from "./conditional-check";

/** Items outlive their last slot by a day (TTL), so idle hosts leave the table. */
export function expiresAt(nextAt: number): number {
  return Math.ceil(nextAt / 1000) + 86_400;
}

/** A number field of an item, or null. */
export function num(v: unknown): number | null {
  return typeof v === "number" ? v : null;
}

export class HostItems {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The host's item, read consistently (undefined when the host has none yet). */
  async read(host: string): Promise<Record<string, unknown> | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { host }, ConsistentRead: true }),
    );
    return out.Item;
  }

  /**
   * Sets `fields` if the item is as read: its version when the write `takes` the host (the version then
   * moves on), its schedule when the write `schedules` slots. False when another write came first.
   */
  async setIfUnchanged(
    host: string,
    item: Record<string, unknown> | undefined,
    fields: Record<string, number>,
    check: { takes: boolean; schedules: boolean },
  ): Promise<boolean> {
    const v = num(item?.v);
    const scheduled = num(item?.scheduled_until);
    const conditions: string[] = [];
    const values: Record<string, number> = Object.fromEntries(
      Object.entries(fields).map(([n, x]) => [`:${n}`, x]),
    );
    if (item === undefined) conditions.push("attribute_not_exists(host)");
    else {
      if (check.takes) {
        conditions.push(v === null ? "attribute_not_exists(v)" : "v = :v");
        if (v !== null) values[":v"] = v;
      }
      if (check.schedules) {
        conditions.push(
          scheduled === null ? "attribute_not_exists(scheduled_until)" : "scheduled_until = :s",
        );
        if (scheduled !== null) values[":s"] = scheduled;
      }
    }
    const sets = Object.keys(fields).map((n) => `${n} = :${n}`);
    if (check.takes) {
      sets.push("v = :v1");
      values[":v1"] = (v ?? 0) + 1;
    }
    return this.update({
      TableName: this.tableName,
      Key: { host },
      UpdateExpression: `SET ${sets.join(", ")}`,
      ...(conditions.length > 0 ? { ConditionExpression: conditions.join(" AND ") } : {}),
      ExpressionAttributeValues: values,
    });
  }

  /** Sets the fields if the item's version is still `seen` (the caller's last write), moving it on to
   * `seen + 1`; false if not. */
  setIfVersion(host: string, seen: number, fields: Record<string, number>): Promise<boolean> {
    const names = Object.keys(fields);
    return this.update({
      TableName: this.tableName,
      Key: { host },
      UpdateExpression: `SET ${names.map((n) => `${n} = :${n}`).join(", ")}, v = :v1`,
      ConditionExpression: "v = :seen",
      ExpressionAttributeValues: {
        ...Object.fromEntries(names.map((n) => [`:${n}`, fields[n]])),
        ":seen": seen,
        ":v1": seen + 1,
      },
    });
  }

  /** Sets the host's next slot to `next` unless a later one is set already (someone took the host after
   * the caller's lease ran out: the later slot stays). */
  async keepLaterNext(host: string, next: number): Promise<void> {
    await this.update({
      TableName: this.tableName,
      Key: { host },
      UpdateExpression: "SET next_at = :next, expires_at = :expires",
      ConditionExpression: "attribute_not_exists(next_at) OR next_at < :next",
      ExpressionAttributeValues: { ":next": next, ":expires": expiresAt(next) },
    });
  }

  /** One conditional update: false when its condition failed. */
  private async update(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<boolean> {
    try {
      await this.doc.send(new UpdateCommand(input));
    } catch (err) {
      if (isConditionalCheckFailure(err)) return false;
      throw err;
    }
    return true;
  }
}
