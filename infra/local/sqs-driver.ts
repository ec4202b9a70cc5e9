/**
 * Drives a queue-triggered handler the way the Lambda SQS event source does: receive a batch, invoke,
 * delete what succeeded, let the reported failures become visible again (after `retryDelaySeconds`)
 * until the queue's redrive policy moves them to the DLQ.
 */
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { ABANDONED, settleOrAbandon } from "./settle-or-abandon";

/** `visibilitySet`: failures the handler put back itself until a time (lambdas/fetch.ts); Lambda's event
 * source leaves a failed message's visibility as it is, so the quick local retry must not undo it. */
export type SqsHandler = (
  event: SQSEvent,
) => Promise<(SQSBatchResponse & { readonly visibilitySet?: readonly string[] }) | undefined>;

export interface SqsDriverOptions {
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly batchSize: number;
  readonly region: string;
  /** How long a received batch stays invisible: the local stand-in for the function timeout. */
  readonly visibilitySeconds: number;
  /** How soon a failed message is retried. Lambda waits the queue's visibility timeout; locally we need not. */
  readonly retryDelaySeconds: number;
  /** A stopping run: a batch still in its handler a grace period after the abort is released unfinished. */
  readonly signal?: AbortSignal;
}

function toRecord(m: Message, opts: SqsDriverOptions): SQSRecord {
  const a = m.Attributes ?? {};
  return {
    messageId: m.MessageId ?? "",
    receiptHandle: m.ReceiptHandle ?? "",
    body: m.Body ?? "",
    attributes: {
      ApproximateReceiveCount: a.ApproximateReceiveCount ?? "1",
      SentTimestamp: a.SentTimestamp ?? String(Date.now()),
      SenderId: a.SenderId ?? "local",
      ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(a.MessageGroupId ? { MessageGroupId: a.MessageGroupId } : {}),
      ...(a.MessageDeduplicationId ? { MessageDeduplicationId: a.MessageDeduplicationId } : {}),
      ...(a.SequenceNumber ? { SequenceNumber: a.SequenceNumber } : {}),
    },
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? "",
    eventSource: "aws:sqs",
    eventSourceARN: opts.queueArn,
    awsRegion: opts.region,
  };
}

export interface BatchResult {
  readonly received: number;
  readonly failed: number;
  /** Messages released unfinished because the run stopped (neither done nor failed: for the next run). */
  readonly abandoned?: number;
  /** Messages the handler put back until a time (not failures). */
  readonly putBack?: number;
}

/** Receives and processes one batch. Returns null when the queue had nothing to hand out. */
export async function pumpOnce(
  sqs: SQSClient,
  handler: SqsHandler,
  opts: SqsDriverOptions,
): Promise<BatchResult | null> {
  const out = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: opts.queueUrl,
      MaxNumberOfMessages: Math.min(10, opts.batchSize),
      VisibilityTimeout: opts.visibilitySeconds,
      WaitTimeSeconds: 0,
      MessageSystemAttributeNames: ["All"],
    }),
  );
  const messages = out.Messages ?? [];
  if (messages.length === 0) return null;
  const records = messages.map((m) => toRecord(m, opts));
  // A handler that throws fails the whole batch, as in Lambda.
  const all = () => new Set(records.map((r) => r.messageId));
  let kept = new Set<string>();
  const handled = handler({ Records: records }).then((res) => {
    kept = new Set(res?.visibilitySet ?? []);
    return new Set((res?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  }, all);
  const failedIds = await settleOrAbandon(handled, opts.signal);
  if (failedIds === ABANDONED) {
    // Visible again at once, uncounted: the stopping run saves the queue and the next run delivers them.
    await sqs.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: opts.queueUrl,
        Entries: records.map((r, i) => ({
          Id: String(i),
          ReceiptHandle: r.receiptHandle,
          VisibilityTimeout: 0,
        })),
      }),
    );
    return { received: records.length, failed: 0, abandoned: records.length };
  }
  const done = records.filter((r) => !failedIds.has(r.messageId));
  const failed = records.filter((r) => failedIds.has(r.messageId) && !kept.has(r.messageId));
  const putBack = records.filter((r) => kept.has(r.messageId)).length;
  if (done.length > 0) {
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: opts.queueUrl,
        Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
      }),
    );
  }
  if (failed.length > 0) {
    await sqs.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: opts.queueUrl,
        Entries: failed.map((r, i) => ({
          Id: String(i),
          ReceiptHandle: r.receiptHandle,
          VisibilityTimeout: opts.retryDelaySeconds,
        })),
      }),
    );
  }
  return { received: records.length, failed: failed.length, putBack };
}
