/**
 * Puts received messages back in their queue until a given time, without deleting them: one
 * ChangeMessageVisibilityBatch request per ten. Fetch puts back the pages whose host is not due (their
 * slot is on the Hosts item, host-pace-table.ts) and reports them as batch item failures, which the
 * event source leaves in the queue with the visibility set here.
 */
import { ChangeMessageVisibilityBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { MAX_PUT_BACK_MS } from "../fetch/host-slots";

/**
 * The longest a page is put back (in flight) for; a page due later is sent again, delayed (fetch). In
 * flight is bounded (~120,000 a queue): at a burst's 2,100 pages a second with a quarter put back, a
 * minute holds ~32,000. Longer than the Hosts lease (35 s), so a page waiting out a hung request keeps
 * its receive count, which backs its put-backs off.
 */
export const MAX_IN_FLIGHT_WAIT_MS = 60_000;

export interface PutBack {
  readonly receiptHandle: string;
  /** When the message is to be delivered again (epoch ms); SQS rounds it up to the whole second. */
  readonly at: number;
}

export class QueuePutBack {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  /** The seconds of invisibility that bring a message back at `at`, not before (SQS: 0 to 12 h). */
  static seconds(at: number, now: number): number {
    return Math.ceil(Math.min(Math.max(at - now, 0), MAX_PUT_BACK_MS) / 1000);
  }

  /** Puts the messages back; returns the receipt handles SQS did not take (they come back at the
   * visibility they were received with, and are admitted again then). */
  async putBack(entries: readonly PutBack[], now: number): Promise<string[]> {
    const refused: string[] = [];
    for (let i = 0; i < entries.length; i += 10) {
      const chunk = entries.slice(i, i + 10);
      const out = await this.sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: chunk.map((e, j) => ({
            Id: String(j),
            ReceiptHandle: e.receiptHandle,
            VisibilityTimeout: QueuePutBack.seconds(e.at, now),
          })),
        }),
      );
      for (const f of out.Failed ?? []) refused.push(chunk[Number(f.Id)]?.receiptHandle ?? "");
    }
    return refused;
  }
}
