/**
 * Per-host pacing across every concurrent function: discovery and all fetch Lambdas. The FIFO queue
 * (one message group per host) keeps one fetch batch per host in flight; this table closes the gaps
 * between batches in different containers, discovery's requests, and redirect hops to another host.
 *
 * The host's item says when its next request may start (`next_at`) and, while a request is out,
 * until when the host is taken (`busy_until`: at most HOST_LEASE_MS, so a container that dies
 * mid-request frees it). A request reserves the host with a conditional write on the item's version
 * `v`; one that finds the host taken reads it again until the holder's request ends. When a request
 * ends, `done` frees the host from one interval after that end (request-pacing.ts). So no request to a
 * host starts while another is out, and each starts at least one interval (crawl-delay.ts) after the
 * last one ended, whoever sent it. (Before the lease, a second container reserved one interval after
 * the first request's start, so a request slower than the interval overlapped the next.)
 *
 * A fetch batch of a daily burst is one host's pages in order. While the caller says more requests to
 * a host follow (`expectMore`), `done` keeps the host for the next one in the same write: its slot one
 * interval after this end, the lease running on. The next `wait` then costs no table call. A daily
 * burst's 10-page batch costs 11 writes and 1 read instead of 20 and 10; `release` frees a host kept
 * for a request that did not come.
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { hostIntervalMs } from "../fetch/crawl-delay";
import { sleepMs } from "../fetch/host-pacer";
import { DEFAULT_FETCH_LIMITS } from "../fetch/http";
import type { Pacer } from "../fetch/request-pacing";
import { isConditionalCheckFailure } from "./conditional-check";

export interface HostPaceOptions {
  readonly minDelayMs: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** How long a request may keep its host: HttpClient's whole budget for one URL (every hop), plus 5 s
 * for the writes around it. */
export const HOST_LEASE_MS = DEFAULT_FETCH_LIMITS.totalTimeoutMs + 5_000;
/** While another request has the host, its item is read again this often (one read unit each). */
const POLL_MS = 250;
/** Conditional writes lost to other reservations before giving up (each loser reads again). */
const ATTEMPTS = 20;

/** Items outlive their last slot by a day (TTL), so idle hosts leave the table. */
function expiresAt(nextAt: number): number {
  return Math.ceil(nextAt / 1000) + 86_400;
}

function num(v: unknown): number | null {
  return typeof v === "number" ? v : null;
}

export class HostPaceTable implements Pacer {
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Hosts the caller will request again after the request in progress. */
  private readonly expected = new Set<string>();
  /** Per host this pacer has taken: the item version its last write made. */
  private readonly mine = new Map<string, number>();
  /** Per host kept by `done` for the next request: that request's slot. */
  private readonly held = new Map<string, number>();
  /** Per host: this pacer's requests between `wait` and `done` (a redirect hop may join a host's own
   * pages in one container); a host is kept for the next request only when the ending one was alone. */
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

  /**
   * Resolves when a request to `host` may start, having taken the host. Returns early, without it,
   * only when the caller's `sleep` ends early (its time is up: it sends nothing).
   */
  async wait(host: string, crawlDelaySeconds?: number | null, minDelayMs?: number): Promise<void> {
    const interval = this.intervalMs(crawlDelaySeconds, minDelayMs);
    if (await this.takeHeld(host, interval)) return this.started(host);
    for (let lost = 0; lost < ATTEMPTS; ) {
      const item = (
        await this.doc.send(
          new GetCommand({ TableName: this.tableName, Key: { host }, ConsistentRead: true }),
        )
      ).Item;
      const now = this.now();
      const busyUntil = num(item?.busy_until) ?? 0;
      if (busyUntil > now) {
        // Another request to the host is out, or its next slot is kept: read again when it may be over.
        const wake = Math.min(busyUntil, now + POLL_MS);
        await this.sleep(wake - now);
        // A sleep cut short (the caller's time ran out) returns at once; timers fire on time, ±1 ms.
        if (this.now() < wake - 2) return;
        continue;
      }
      const next = num(item?.next_at);
      const slot = next === null ? now : Math.max(now, next);
      const v = num(item?.v);
      try {
        await this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              host,
              next_at: slot + interval,
              busy_until: slot + HOST_LEASE_MS,
              v: (v ?? 0) + 1,
              expires_at: expiresAt(slot + HOST_LEASE_MS),
            },
            // Only if nobody took the host since it was read: otherwise read again.
            ConditionExpression:
              item === undefined
                ? "attribute_not_exists(host)"
                : v === null
                  ? "attribute_not_exists(v)"
                  : "v = :v",
            ...(v === null ? {} : { ExpressionAttributeValues: { ":v": v } }),
          }),
        );
      } catch (err) {
        if (!isConditionalCheckFailure(err)) throw err;
        lost++;
        continue;
      }
      this.mine.set(host, (v ?? 0) + 1);
      if (slot > now) await this.sleep(slot - now);
      return this.started(host);
    }
    throw new Error(`could not reserve a request slot for ${host} after ${ATTEMPTS} attempts`);
  }

  /** The request to `host` ended: the host is free from one interval after now (or kept for the next). */
  async done(host: string, crawlDelaySeconds?: number | null, minDelayMs?: number): Promise<void> {
    const interval = this.intervalMs(crawlDelaySeconds, minDelayMs);
    const next = this.now() + interval;
    const mine = this.mine.get(host);
    this.mine.delete(host);
    const inFlight = this.inFlight.get(host) ?? 0;
    if (inFlight > 1) this.inFlight.set(host, inFlight - 1);
    else this.inFlight.delete(host);
    if (mine === undefined) return this.freeLate(host, next);
    if (inFlight <= 1 && this.expected.has(host) && (await this.take(host, mine, next, interval))) {
      this.held.set(host, next);
      return;
    }
    if (!(await this.free(host, mine, next))) await this.freeLate(host, next);
  }

  /**
   * Frees those of `hosts` kept for requests that did not come (a page skipped, or known already) from
   * the slot they were kept for: one interval after the last request's end, as a plain `done` would have
   * left them. Fetch calls it with its batch's hosts at the end of every invocation (the local runtime
   * runs a container's invocations concurrently: another's hosts are not touched); a host never freed
   * waits out its lease.
   */
  async release(hosts: Iterable<string>): Promise<void> {
    for (const host of hosts) {
      this.expected.delete(host);
      const slot = this.held.get(host);
      const mine = this.mine.get(host);
      if (slot === undefined || mine === undefined) continue;
      this.held.delete(host);
      await this.free(host, mine, slot);
      this.mine.delete(host);
    }
  }

  private started(host: string): void {
    this.inFlight.set(host, (this.inFlight.get(host) ?? 0) + 1);
  }

  /** Uses the host `done` kept for this request, if any: true when the request may start now. */
  private async takeHeld(host: string, interval: number): Promise<boolean> {
    const slot = this.held.get(host);
    if (slot === undefined) return false;
    this.held.delete(host);
    const mine = this.mine.get(host);
    if (mine === undefined) return false;
    const now = this.now();
    if (now <= slot) {
      await this.sleep(slot - now);
      return true;
    }
    // Late for the kept slot: start now, renewing the lease, unless the lease ran out and someone took
    // the host meanwhile (then queue for it as anyone would).
    return this.take(host, mine, now, interval);
  }

  /** Takes the host for a request starting at `slot`, if this pacer's write is still the last. */
  private take(host: string, seen: number, slot: number, interval: number): Promise<boolean> {
    return this.write(host, seen, {
      next_at: slot + interval,
      busy_until: slot + HOST_LEASE_MS,
      expires_at: expiresAt(slot + HOST_LEASE_MS),
    });
  }

  /** Frees the host from `next`, if this pacer's write is still the last. */
  private free(host: string, seen: number, next: number): Promise<boolean> {
    return this.write(host, seen, { next_at: next, busy_until: 0, expires_at: expiresAt(next) });
  }

  /** The lease ran out before the request ended and someone took the host: keep the later slot. */
  private async freeLate(host: string, next: number): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { host },
          UpdateExpression: "SET next_at = :next, expires_at = :expires",
          ConditionExpression: "attribute_not_exists(next_at) OR next_at < :next",
          ExpressionAttributeValues: { ":next": next, ":expires": expiresAt(next) },
        }),
      );
    } catch (err) {
      if (!isConditionalCheckFailure(err)) throw err;
    }
  }

  /** Sets the fields if the item's version is still `seen` (this pacer's last write); false if not. */
  private async write(host: string, seen: number, fields: Record<string, number>): Promise<boolean> {
    const names = Object.keys(fields);
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { host },
          UpdateExpression: `SET ${names.map((n) => `${n} = :${n}`).join(", ")}, v = :v1`,
          ConditionExpression: "v = :seen",
          ExpressionAttributeValues: {
            ...Object.fromEntries(names.map((n) => [`:${n}`, fields[n]])),
            ":seen": seen,
            ":v1": seen + 1,
          },
        }),
      );
    } catch (err) {
      if (isConditionalCheckFailure(err)) return false;
      throw err;
    }
    this.mine.set(host, seen + 1);
    return true;
  }
}
