/** DynamoDB batch reads in chunks of 100, with unprocessed keys retried after a growing pause. */
import { BatchGetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { chunks, pause } from "./batch-write";

/** BatchGetItem's limit on keys per call. */
const GET_BATCH = 100;

export interface BatchGetOptions {
  readonly consistent?: boolean;
  /** Only these attributes (each through an expression name, so reserved words like `url` are fine). */
  readonly attributes?: readonly string[];
}

/** Every item found under `keys` (absent keys are left out), in no particular order. */
export async function batchGet(
  doc: DynamoDBDocumentClient,
  table: string,
  keys: readonly Record<string, unknown>[],
  opts: BatchGetOptions = {},
): Promise<Record<string, unknown>[]> {
  const attrs = opts.attributes;
  const projection = attrs
    ? {
        ProjectionExpression: attrs.map((_, i) => `#p${i}`).join(", "),
        ExpressionAttributeNames: Object.fromEntries(attrs.map((a, i) => [`#p${i}`, a])),
      }
    : {};
  const found: Record<string, unknown>[] = [];
  for (const batch of chunks(keys, GET_BATCH)) {
    let pending: Record<string, unknown>[] = batch;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await pause(attempt);
      const out = await doc.send(
        new BatchGetCommand({
          RequestItems: {
            [table]: { Keys: pending, ...(opts.consistent ? { ConsistentRead: true } : {}), ...projection },
          },
        }),
      );
      found.push(...((out.Responses?.[table] ?? []) as Record<string, unknown>[]));
      pending = (out.UnprocessedKeys?.[table]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    }
  }
  return found;
}
