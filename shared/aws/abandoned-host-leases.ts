/**
 * A local run owns its data directory's Hosts table: when it starts, no request of an earlier process
 * is still out, yet a run stopped by a signal mid-request leaves that host taken until its lease runs
 * out (HOST_LEASE_MS, 35 s), and the next run's pages of it wait that long (measured: a resumed page
 * waited 35 s). Deployed functions never call this: there another container may hold the host, and the
 * lease is what frees a host whose container died.
 *
 * The abandoned request ended when its process exited, before now: the host is free from one interval
 * after now, the gap the lease keeps between the end of one request and the start of the next.
 */
import { type DynamoDBDocumentClient, paginateScan, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { HOST_LEASE_MS } from "../fetch/host-slots";
import { isConditionalCheckFailure } from "./conditional-check";

const num = (v: unknown): number | null => (typeof v === "number" ? v : null);

/** Frees every host of `tableName` still taken at `now`; returns how many. */
export async function freeAbandonedHostLeases(
  doc: DynamoDBDocumentClient,
  tableName: string,
  now: number,
): Promise<number> {
  let freed = 0;
  const taken = paginateScan(
    { client: doc },
    {
      TableName: tableName,
      FilterExpression: "busy_until > :now",
      ExpressionAttributeValues: { ":now": now },
      ConsistentRead: true,
    },
  );
  for await (const page of taken) {
    for (const item of page.Items ?? []) {
      const busyUntil = num(item.busy_until) ?? 0;
      const nextAt = num(item.next_at) ?? 0;
      // A take writes next_at = start + interval and busy_until = start + HOST_LEASE_MS: the interval the
      // request was taken with, which a source's minimum may have made longer than the item's interval_ms.
      const interval = Math.max(num(item.interval_ms) ?? 0, nextAt - (busyUntil - HOST_LEASE_MS));
      const v = num(item.v);
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { host: item.host },
            UpdateExpression: "SET busy_until = :zero, next_at = :next, v = :v1",
            ConditionExpression: v === null ? "attribute_not_exists(v)" : "v = :seen",
            ExpressionAttributeValues: {
              ":zero": 0,
              ":next": Math.max(nextAt, now + interval),
              ":v1": (v ?? 0) + 1,
              ...(v === null ? {} : { ":seen": v }),
            },
          }),
        );
        freed++;
      } catch (err) {
        if (!isConditionalCheckFailure(err)) throw err; // written since the scan: not abandoned
      }
    }
  }
  return freed;
}
