/** DynamoDB batch writes in chunks of 25, with unprocessed items retried after a growing pause. */
import { BatchWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

export function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** Backoff before retrying what DynamoDB left unprocessed: 40 ms doubling, capped at 1 s. */
export const pause = (attempt: number) =>
  new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt)));

/** Puts or deletes every request (BatchWriteItem's limit is 25 per call). */
export async function batchWrite(
  doc: DynamoDBDocumentClient,
  table: string,
  requests: readonly Record<string, unknown>[],
): Promise<void> {
  for (const batch of chunks(requests, 25)) {
    let pending = batch;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await pause(attempt);
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: pending as never } }));
      pending = (out.UnprocessedItems?.[table] as Record<string, unknown>[] | undefined) ?? [];
    }
  }
}
