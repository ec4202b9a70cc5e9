/**
 * Per-host pacing across every concurrent fetch Lambda. The FIFO queue (one message group per host)
 * already keeps one batch per host in flight; this table closes the gap between two batches handled
 * by different containers: each request reserves the host's next slot with a conditional write, so
 * two requests to one host are always at least the politeness rule's interval apart (crawl-delay.ts).
 * When a request ends, `done` moves the host's next slot to one interval after that end
 * (request-pacing.ts): one more conditional write per request.
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { hostIntervalMs } from "../fetch/crawl-delay";
import { sleepMs } from "../fetch/host-pacer";
import type { Pacer } from "../fetch/request-pacing";
import { isConditionalCheckFailure } from "./conditional-check";

export interface HostPaceOptions {
  readonly minDelayMs: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

const ATTEMPTS = 20;

export class HostPaceTable implements Pacer {
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly opts: HostPaceOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? sleepMs;
  }

  intervalMs(crawlDelaySeconds?: number | null, minDelayMs = 0): number {
    return hostIntervalMs(Math.max(this.opts.minDelayMs, minDelayMs), crawlDelaySeconds);
  }

  async wait(host: string, crawlDelaySeconds?: number | null, minDelayMs?: number): Promise<void> {
    const interval = this.intervalMs(crawlDelaySeconds, minDelayMs);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const got = await this.doc.send(
        new GetCommand({ TableName: this.tableName, Key: { host }, ConsistentRead: true }),
      );
      const next = typeof got.Item?.next_at === "number" ? got.Item.next_at : null;
      const now = this.now();
      const slot = next === null ? now : Math.max(now, next);
      try {
        await this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              host,
              next_at: slot + interval,
              expires_at: Math.ceil((slot + interval) / 1000) + 86_400,
            },
            // Reserve only if nobody reserved since we read: otherwise read again and queue behind them.
            ConditionExpression: next === null ? "attribute_not_exists(host)" : "next_at = :seen",
            ...(next === null ? {} : { ExpressionAttributeValues: { ":seen": next } }),
          }),
        );
      } catch (err) {
        if (isConditionalCheckFailure(err)) continue;
        throw err;
      }
      if (slot > now) await this.sleep(slot - now);
      return;
    }
    throw new Error(`could not reserve a request slot for ${host} after ${ATTEMPTS} attempts`);
  }

  async done(host: string, crawlDelaySeconds?: number | null, minDelayMs?: number): Promise<void> {
    const next = this.now() + this.intervalMs(crawlDelaySeconds, minDelayMs);
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { host },
          UpdateExpression: "SET next_at = :next, expires_at = :expires",
          // A later slot already reserved (a concurrent request queued behind this one) stays.
          ConditionExpression: "attribute_not_exists(next_at) OR next_at < :next",
          ExpressionAttributeValues: { ":next": next, ":expires": Math.ceil(next / 1000) + 86_400 },
        }),
      );
    } catch (err) {
      if (!isConditionalCheckFailure(err)) throw err;
    }
  }
}
