/**
 * A FIFO batch worked group by group, the groups concurrently: each message group's records run in
 * order through Powertools' `SqsFifoPartialProcessorAsync` with `skipGroupOnError` (a failure fails
 * the rest of its own group and nothing else), and the groups' failures are merged into one
 * `batchItemFailures` list in the batch's order. Powertools 2.35's FIFO processor works the whole
 * batch one record after another, so a fetch batch of several hosts would bill each host's waits
 * (the publisher, the host delay) one after the other; here they overlap.
 */
import { processPartialResponse, SqsFifoPartialProcessorAsync } from "@aws-lambda-powertools/batch";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";

export interface GroupRunOptions {
  readonly context?: Context;
  /** Groups worked at once (a memory bound: each holds one record's work in memory); at least 1. */
  readonly maxConcurrentGroups: number;
  /**
   * Called for each record failed unread because an earlier record of its group failed, so the caller
   * can say so where the record's state lives (its redelivery is then not mistaken for a crash).
   */
  readonly onSkipped?: (record: SQSRecord) => Promise<void>;
}

/** The batch's records by message group, groups in order of first appearance, records in batch order. */
export function messageGroups(records: readonly SQSRecord[]): SQSRecord[][] {
  const byId = new Map<string, SQSRecord[]>();
  const groups: SQSRecord[][] = [];
  for (const record of records) {
    const id = record.attributes?.MessageGroupId;
    // A record without a group (a standard queue's) has no order to keep: a group of its own.
    if (id === undefined) {
      groups.push([record]);
      continue;
    }
    let group = byId.get(id);
    if (!group) {
      group = [];
      byId.set(id, group);
      groups.push(group);
    }
    group.push(record);
  }
  return groups;
}

/** Ids of the records that have a later record of their own message group in the batch. */
export function followedInGroup(records: readonly SQSRecord[]): Set<string> {
  const out = new Set<string>();
  for (const group of messageGroups(records)) for (const r of group.slice(0, -1)) out.add(r.messageId);
  return out;
}

export async function processFifoGroupsConcurrently(
  event: SQSEvent,
  recordHandler: (record: SQSRecord) => Promise<unknown>,
  opts: GroupRunOptions,
): Promise<SQSBatchResponse> {
  const groups = messageGroups(event.Records);
  const failed = new Set<string>();
  let next = 0;
  // A fixed pool of workers, each taking the next whole group: never more groups in flight than the bound.
  const worker = async () => {
    for (let group = groups[next++]; group !== undefined; group = groups[next++]) {
      const response = await processPartialResponse(
        { Records: group },
        recordHandler,
        new SqsFifoPartialProcessorAsync(),
        {
          ...(opts.context ? { context: opts.context } : {}),
          skipGroupOnError: true,
          throwOnFullBatchFailure: false,
        },
      );
      const groupFailed = new Set(response.batchItemFailures.map((f) => f.itemIdentifier));
      for (const id of groupFailed) failed.add(id);
      // The first failure in the group's order is the one that ran; the failures after it were skipped.
      const skipped = group.filter((r) => groupFailed.has(r.messageId)).slice(1);
      for (const record of skipped) await opts.onSkipped?.(record);
    }
  };
  const workers = Math.max(1, Math.min(opts.maxConcurrentGroups, groups.length));
  // Every group finishes before the batch answers, even when one worker throws (a bad event).
  const settled = await Promise.allSettled(Array.from({ length: workers }, worker));
  for (const s of settled) if (s.status === "rejected") throw s.reason;
  return {
    batchItemFailures: event.Records.filter((r) => failed.has(r.messageId)).map((r) => ({
      itemIdentifier: r.messageId,
    })),
  };
}
