/**
 * Per-host pacing across every concurrent fetch Lambda. The FIFO queue (one message group per host)
 * already keeps one batch per host in flight; this table closes the gap between two batches handled
 * by different containers: each request reserves the host's next slot with a conditional write, so
 * two requests to one host are always at least the politeness rule's interval apart (crawl-delay.ts).
 * When a request ends, `done` moves the host's next slot to one interval after that end
 * (request-pacing.ts): one more conditional write per request.
 *
 * A fetch batch of a daily burst is one host's pages in order. While the caller says more requests to
 * a host follow (`expectMore`), `done` also reserves the next request's slot in the same write: the
 * table then says end + 2 intervals and this pacer holds end + 1 interval, exactly the state `done`
 * followed at once by `wait` would leave, on condition that nobody reserved since this pacer did. The
 * next `wait` then costs no table call. A daily burst's 10-page batch costs 11 writes and 1 read
 * instead of 20 and 10; `release` hands back a slot held for a request that did not come.
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

/** Items outlive their last slot by a day (TTL), so idle hosts leave the table. */
function expiresAt(nextAt: number): number {
  return Math.ceil(nextAt / 1000) + 86_400;
}

export class HostPaceTable implements Pacer {
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Hosts the caller will request again after the request in progress. */
  private readonly expected = new Set<string>();
  /** Per host with a request in flight or a slot held: the next_at this pacer last wrote. */
  private readonly written = new Map<string, number>();
  /** Per host: a slot reserved ahead by `done` for the next request. */
  private readonly held = new Map<string, number>();
  /** Per host: this pacer's requests between `wait` and `done` (a redirect hop may join a host's own
   * pages in one container); a slot is held ahead only when the ending request was the only one. */
  private readonly inFlight = new Map<string, number>();

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

  /** Whether another request to `host` follows the one in progress (fetch: a later page of its batch). */
  expectMore(host: string, more: boolean): void {
    if (more) this.expected.add(host);
    else this.expected.delete(host);
  }

  async wait(host: string, crawlDelaySeconds?: number | null, minDelayMs?: number): Promise<void> {
    const interval = this.intervalMs(crawlDelaySeconds, minDelayMs);
    if (await this.takeHeld(host, interval)) return this.started(host);
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
            Item: { host, next_at: slot + interval, expires_at: expiresAt(slot + interval) },
            // Reserve only if nobody reserved since we read: otherwise read again and queue behind them.
            ConditionExpression: next === null ? "attribute_not_exists(host)" : "next_at = :seen",
            ...(next === null ? {} : { ExpressionAttributeValues: { ":seen": next } }),
          }),
        );
      } catch (err) {
        if (isConditionalCheckFailure(err)) continue;
        throw err;
      }
      this.written.set(host, slot + interval);
      if (slot > now) await this.sleep(slot - now);
      return this.started(host);
    }
    throw new Error(`could not reserve a request slot for ${host} after ${ATTEMPTS} attempts`);
  }

  async done(host: string, crawlDelaySeconds?: number | null, minDelayMs?: number): Promise<void> {
    const interval = this.intervalMs(crawlDelaySeconds, minDelayMs);
    const next = this.now() + interval;
    const mine = this.written.get(host);
    this.written.delete(host);
    const inFlight = this.inFlight.get(host) ?? 0;
    if (inFlight > 1) this.inFlight.set(host, inFlight - 1);
    else this.inFlight.delete(host);
    if (
      inFlight <= 1 &&
      this.expected.has(host) &&
      mine !== undefined &&
      (await this.move(host, mine, next + interval))
    ) {
      this.held.set(host, next);
      return;
    }
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { host },
          UpdateExpression: "SET next_at = :next, expires_at = :expires",
          // A later slot already reserved (a concurrent request queued behind this one) stays.
          ConditionExpression: "attribute_not_exists(next_at) OR next_at < :next",
          ExpressionAttributeValues: { ":next": next, ":expires": expiresAt(next) },
        }),
      );
    } catch (err) {
      if (!isConditionalCheckFailure(err)) throw err;
    }
  }

  /**
   * Hands back the slots held for requests that did not come (a page skipped, or known already): the
   * table goes back to one interval after the last request's end, as a plain `done` would have left it.
   * Fetch calls it at the end of every invocation; a slot never handed back only idles its host one
   * more interval.
   */
  async release(): Promise<void> {
    const held = [...this.held];
    this.held.clear();
    this.expected.clear();
    this.inFlight.clear();
    try {
      for (const [host, slot] of held) {
        const mine = this.written.get(host);
        if (mine !== undefined) await this.move(host, mine, slot);
      }
    } finally {
      this.written.clear();
    }
  }

  private started(host: string): void {
    this.inFlight.set(host, (this.inFlight.get(host) ?? 0) + 1);
  }

  /** Uses the slot `done` held for this host, if any: true when the request may start now. */
  private async takeHeld(host: string, interval: number): Promise<boolean> {
    const slot = this.held.get(host);
    if (slot === undefined) return false;
    this.held.delete(host);
    const now = this.now();
    if (now <= slot) {
      // The table already says slot + interval: the slot is this request's alone.
      await this.sleep(slot - now);
      return true;
    }
    // Late for the held slot: start now if nobody queued behind it since, else reserve afresh.
    const mine = this.written.get(host);
    return mine !== undefined && (await this.move(host, mine, now + interval));
  }

  /** Sets the host's next slot to `to` if it still is `seen` (this pacer's last write); false if not. */
  private async move(host: string, seen: number, to: number): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { host },
          UpdateExpression: "SET next_at = :to, expires_at = :expires",
          ConditionExpression: "next_at = :seen",
          ExpressionAttributeValues: { ":to": to, ":seen": seen, ":expires": expiresAt(to) },
        }),
      );
    } catch (err) {
      if (isConditionalCheckFailure(err)) return false;
      throw err;
    }
    this.written.set(host, to);
    return true;
  }
}
