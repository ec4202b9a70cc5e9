/**
 * Returns received fetch pages to their queue until their slot, one of two ways:
 * - **sent again**, delayed towards the slot (up to SQS's 15 minutes), when the page came before its slot
 *   or its slot is more than MAX_IN_FLIGHT_WAIT_MS away. A delayed message is not in flight, and SQS holds
 *   about 120,000 in flight a queue (then receives return nothing): a daily burst of 5 M pages held 2.8 M
 *   early pages in flight, and its put-backs to the end of their hosts' schedules 209,000 (bench --only
 *   scale). The event source deletes the originals.
 * - **put back** in flight until the slot (ChangeMessageVisibilityBatch) otherwise, so that a page waiting
 *   out a hung request keeps its receive count, which backs its put-backs off. A page that could not be
 *   sent again is put back instead: nothing is lost.
 */

import type { FetchMessage } from "../records";
import { MAX_IN_FLIGHT_WAIT_MS, type QueuePutBack } from "./queue-put-back";
import type { FetchQueueSender } from "./queue-sender";

export interface ReturnedPage {
  readonly receiptHandle: string;
  readonly message: FetchMessage;
  /** Its slot (epoch ms, the Hosts table's clock). */
  readonly at: number;
  /** Delivered before its slot (SQS caps a delay at 15 minutes): sent again however near the slot is. */
  readonly early: boolean;
}

export interface Returned<T extends ReturnedPage> {
  readonly sentAgain: readonly T[];
  /** In flight until their slot: the handler reports them as batch item failures. */
  readonly putBack: readonly T[];
  /** Receipt handles of pages neither sent again nor put back: they come back at the visibility they
   * were received with, and are admitted again then. */
  readonly refused: ReadonlySet<string>;
  /** Why sending again (then every page was put back instead) or putting back failed, for the log. */
  readonly sendAgainError?: unknown;
  readonly putBackError?: unknown;
}

export class FetchQueueReturn {
  constructor(
    private readonly sender: FetchQueueSender,
    private readonly putBacks: QueuePutBack,
    /** The Hosts table's clock (real time), which slots are on. */
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a page is sent again rather than put back in flight (the scale model asks it too). */
  static sendsAgain(page: Pick<ReturnedPage, "early" | "at">, now: number): boolean {
    return page.early || page.at - now > MAX_IN_FLIGHT_WAIT_MS;
  }

  async return<T extends ReturnedPage>(pages: readonly T[]): Promise<Returned<T>> {
    const now = this.now();
    const later = pages.filter((p) => FetchQueueReturn.sendsAgain(p, now));
    let sentAgain: readonly T[] = [];
    let sendAgainError: unknown;
    if (later.length > 0) {
      try {
        await this.sender.send(later.map((p) => ({ ...p.message, slot_at: p.at })));
        sentAgain = later;
      } catch (err) {
        sendAgainError = err;
      }
    }
    const putBack = pages.filter((p) => !sentAgain.includes(p));
    let refused: ReadonlySet<string> = new Set();
    let putBackError: unknown;
    if (putBack.length > 0) {
      refused = new Set(
        await this.putBacks
          .putBack(
            putBack.map((p) => ({ receiptHandle: p.receiptHandle, at: p.at })),
            this.now(),
          )
          .catch((err: unknown) => {
            putBackError = err;
            return putBack.map((p) => p.receiptHandle);
          }),
      );
    }
    return {
      sentAgain,
      putBack,
      refused,
      ...(sendAgainError === undefined ? {} : { sendAgainError }),
      ...(putBackError === undefined ? {} : { putBackError }),
    };
  }
}
