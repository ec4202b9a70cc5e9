/**
 * Moves the messages of a dead-letter queue back to the queue they came from, after a fix: receive,
 * re-send (a FIFO message keeps its group, so per-host order and pacing hold), then delete. A message
 * is deleted from the DLQ only once its copy is accepted, so an interrupted redrive loses nothing; a
 * message redriven twice is handled twice, which the idempotent handlers absorb.
 */
import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from "@aws-sdk/client-sqs";

export interface RedriveResult {
  /** Re-sent to the source queue and deleted from the DLQ. */
  readonly moved: number;
  /** Refused by the source queue: left in the DLQ (they reappear after the visibility timeout). */
  readonly failed: number;
}

export interface RedriveOptions {
  /** Stop after this many messages (default: until the DLQ answers empty). */
  readonly max?: number;
  /** How long a received message stays hidden in the DLQ while it is being moved. */
  readonly visibilitySeconds?: number;
}

/** SQS's batch limit. */
const BATCH = 10;

export async function redriveDeadLetters(
  sqs: SQSClient,
  from: string,
  to: string,
  opts: RedriveOptions = {},
): Promise<RedriveResult> {
  const fifo = to.endsWith(".fifo");
  let moved = 0;
  let failed = 0;
  const max = opts.max ?? Number.POSITIVE_INFINITY;
  while (moved + failed < max) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: from,
        MaxNumberOfMessages: Math.min(BATCH, max - moved - failed),
        VisibilityTimeout: opts.visibilitySeconds ?? 60,
        WaitTimeSeconds: 1,
        MessageSystemAttributeNames: ["MessageGroupId"],
        MessageAttributeNames: ["All"],
      }),
    );
    if (Messages.length === 0) break;
    const entries = Messages.map((m, i) => resendEntry(m, i, fifo));
    const sent = await sqs.send(new SendMessageBatchCommand({ QueueUrl: to, Entries: entries }));
    const ok = new Set((sent.Successful ?? []).map((s) => s.Id));
    failed += Messages.length - ok.size;
    const done = Messages.filter((_, i) => ok.has(String(i)));
    if (done.length > 0) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: from,
          Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
        }),
      );
    }
    moved += done.length;
  }
  return { moved, failed };
}

function resendEntry(m: Message, i: number, fifo: boolean): SendMessageBatchRequestEntry {
  return {
    Id: String(i),
    MessageBody: m.Body ?? "",
    MessageAttributes: m.MessageAttributes,
    // The DLQ message's own id: unique per dead letter, so content-based deduplication cannot drop a
    // redrive of a message that was sent with the same body minutes ago.
    ...(fifo
      ? { MessageGroupId: m.Attributes?.MessageGroupId ?? "redrive", MessageDeduplicationId: m.MessageId }
      : {}),
  };
}
