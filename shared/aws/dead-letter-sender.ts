/**
 * Parks a message in its queue's dead-letter queue from the handler, for the messages the handler
 * gives up on itself (fetch-attempt.ts: a URL's last allowed attempt failed; a malformed body). SQS's
 * own redrive (maxReceiveCount) stays the backstop for a message whose every delivery crashes. The copy
 * keeps its body and message group, so a redrive (dead-letter-redrive.ts) puts it back in its host's
 * order, and says why in a message attribute.
 */
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { SQSRecord } from "aws-lambda";

/** The message attribute that says why a message was parked. */
export const PARKED_REASON_ATTRIBUTE = "storytrail_parked_reason";

export class DeadLetterSender {
  constructor(
    private readonly sqs: SQSClient,
    private readonly deadLetterQueueUrl: string,
  ) {}

  /** Copies the record into the DLQ; throws when SQS refuses it (the record is then retried, not lost). */
  async park(record: SQSRecord, reason: string): Promise<void> {
    const group = record.attributes.MessageGroupId;
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.deadLetterQueueUrl,
        MessageBody: record.body,
        // A FIFO DLQ needs a group and a deduplication id: the original message's, so parking the same
        // delivery twice (a retried invocation) leaves one copy.
        ...(group
          ? { MessageGroupId: group, MessageDeduplicationId: `${record.messageId}`.slice(0, 128) }
          : {}),
        MessageAttributes: {
          [PARKED_REASON_ATTRIBUTE]: { DataType: "String", StringValue: reason.slice(0, 1000) || "unknown" },
        },
      }),
    );
  }
}
