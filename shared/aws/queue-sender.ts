/** Sends messages to an SQS queue in batches of ten, retrying entries SQS reports as failed. */
import {
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import type { DiscoverMessage } from "../crawl/discover-message";
import type { DedupQueue, DiscoverQueue, FetchQueue } from "../crawl/ports";
import type { DedupMessage, FetchMessage } from "../records";

const MAX_ATTEMPTS = 4;

async function sendBatched(
  sqs: SQSClient,
  queueUrl: string,
  entries: readonly Omit<SendMessageBatchRequestEntry, "Id">[],
): Promise<void> {
  for (let i = 0; i < entries.length; i += 10) {
    let pending = entries.slice(i, i + 10).map((e, j) => ({ ...e, Id: String(j) }));
    for (let attempt = 1; pending.length > 0; attempt++) {
      const out = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending }));
      const failed = new Set((out.Failed ?? []).map((f) => f.Id));
      if (failed.size > 0 && attempt >= MAX_ATTEMPTS) {
        const why = (out.Failed ?? []).map((f) => `${f.Code}: ${f.Message}`).join("; ");
        throw new Error(`SQS rejected ${failed.size} message(s) after ${attempt} attempts: ${why}`);
      }
      pending = pending.filter((e) => failed.has(e.Id));
      if (pending.length) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
}

/** SQS's longest message delay (DelaySeconds): 15 minutes. */
export const SQS_MAX_DELAY_MS = 900_000;

/** The whole seconds that deliver a message at `slotAt` (epoch ms), not before, up to SQS's 15 minutes. */
function delaySecondsTo(slotAt: number | undefined, now: number): number {
  if (slotAt === undefined) return 0;
  return Math.min(SQS_MAX_DELAY_MS / 1000, Math.max(0, Math.ceil((slotAt - now) / 1000)));
}

/** Standard fetch queue: the Hosts table paces each host (a duplicate delivery is refused by the Frontier's
 * delivery stamp or re-fetches the page, whose article put is idempotent). A page with a reserved slot
 * (`slot_at`) is delayed to it. */
export class FetchQueueSender implements FetchQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
    /** The Hosts table's clock (real time), which slots are on. */
    private readonly now: () => number = Date.now,
  ) {}

  send(messages: readonly FetchMessage[]): Promise<void> {
    const now = this.now();
    return sendBatched(
      this.sqs,
      this.queueUrl,
      messages.map((m) => {
        const delay = delaySecondsTo(m.slot_at, now);
        return { MessageBody: JSON.stringify(m), ...(delay > 0 ? { DelaySeconds: delay } : {}) };
      }),
    );
  }
}

export class DedupQueueSender implements DedupQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  send(messages: readonly DedupMessage[]): Promise<void> {
    return sendBatched(
      this.sqs,
      this.queueUrl,
      messages.map((m) => ({ MessageBody: JSON.stringify(m) })),
    );
  }
}

/**
 * SendMessageBatch calls in flight at once for the discover queue. One at a time, 99,990 messages took
 * the dispatcher 178 s on the local emulator (~18 ms a call), too near its 300 s timeout; a standard
 * queue takes them in any order.
 */
const DISCOVER_SEND_CONCURRENCY = 8;

/** Standard discover queue: one message per source; a duplicate delivery re-reads a source harmlessly
 * (Frontier claims are atomic, so no URL is enqueued twice). */
export class DiscoverQueueSender implements DiscoverQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(messages: readonly DiscoverMessage[]): Promise<void> {
    const entries = messages.map((m) => ({ MessageBody: JSON.stringify(m) }));
    let next = 0;
    const worker = async () => {
      for (let i = next; i < entries.length; i = next) {
        next += 10;
        await sendBatched(this.sqs, this.queueUrl, entries.slice(i, i + 10));
      }
    };
    await Promise.all(Array.from({ length: DISCOVER_SEND_CONCURRENCY }, worker));
  }
}
