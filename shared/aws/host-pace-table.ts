/**
 * Per-host pacing across every concurrent function: discovery and all fetch Lambdas. The fetch queue is
 * a standard queue; this table alone decides when a host's next request may start, whoever sends it.
 *
 * The host's item says when its next request may start (`next_at`) and, while a request is out,
 * until when the host is taken (`busy_until`: at most HOST_LEASE_MS, so a container that dies
 * mid-request frees it). A request reserves the host with a conditional write on the item's version
 * `v` (host-items.ts); one that finds the host taken reads it again until the holder's request ends.
 * When a request ends, `done` frees the host from one interval after that end (request-pacing.ts). So
 * no request to a host starts while another is out, and each starts at least one interval
 * (crawl-delay.ts) after the last one ended, whoever sent it. (Before the lease, a second container
 * reserved one interval after the first request's start, so a request slower than the interval
 * overlapped the next.)
 *
 * Fetch does not wait for a host in the function (`admit`): a page whose host is not due within
 * MAX_WAIT_IN_FUNCTION_MS reserves the host's next free slot on the item's schedule (`scheduled_until`,
 * one `spacing_ms` per page; the arithmetic is host-slots.ts) and goes back to its queue until then; a
 * page that is due takes the host at once. The lease above stays the rule: a page back at its slot
 * takes the host like any request, so the schedule only makes pages come back when the host is likely
 * free, never lets two requests overlap.
 *
 * While the caller says more requests to a host follow (`expectMore`), `done` keeps the host for the
 * next one in the same write (its slot one interval after this end, the lease running on); `release`
 * frees a host kept for a request that did not come.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { hostIntervalMs } from "../fetch/crawl-delay";
import { sleepMs, sleepUntil } from "../fetch/host-pacer";
import {
  type Admission,
  HOST_LEASE_MS,
  MAX_WAIT_IN_FUNCTION_MS,
  planAdmission,
  slotSpacingMs,
} from "../fetch/host-slots";
import type { Pacer } from "../fetch/request-pacing";
import { expiresAt, HostItems, num } from "./host-items";

export interface HostPaceOptions {
  readonly minDelayMs: number;
  readonly now?: () => number;
  /** Sleeps `ms`, or less when `signal` aborts (default sleepMs). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** How late a request may start on a kept slot without renewing its lease (a write). */
const LATE_START_MS = 1000;
/** While another request has the host, its item is read again this often (one read unit each). */
const POLL_MS = 250;
/** Conditional writes lost to other reservations before giving up (each loser reads again). */
const ATTEMPTS = 20;

export class HostPaceTable implements Pacer {
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Hosts the caller will request again after the request in progress. */
  private readonly expected = new Set<string>();
  /** Per host this pacer has taken: the item version its last write made. */
  private readonly mine = new Map<string, number>();
  /** Per host kept by `done` for the next request: that request's slot. */
  private readonly held = new Map<string, number>();
  /** Per host: this pacer's requests between `wait` and `done` (a redirect hop may join a host's own
   * pages in one container); a host is kept for the next request only when the ending one was alone. */
  private readonly inFlight = new Map<string, number>();
  /** Per host: when this pacer's last request to it started (its time spaces the host's slots). */
  private readonly startedAt = new Map<string, number>();

  private readonly items: HostItems;

  constructor(
    doc: DynamoDBDocumentClient,
    tableName: string,
    private readonly opts: HostPaceOptions,
  ) {
    this.items = new HostItems(doc, tableName);
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
   * only when `signal` aborts (the caller's time is up: it sends nothing).
   */
  async wait(
    host: string,
    crawlDelaySeconds?: number | null,
    minDelayMs?: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const interval = this.intervalMs(crawlDelaySeconds, minDelayMs);
    if (await this.takeHeld(host, interval)) return this.started(host);
    for (let lost = 0; lost < ATTEMPTS; ) {
      const item = await this.items.read(host);
      const now = this.now();
      const busyUntil = num(item?.busy_until) ?? 0;
      if (busyUntil > now) {
        // Another request to the host is out, or its next slot is kept: read again when it may be over.
        const wake = Math.min(busyUntil, now + POLL_MS);
        await this.sleep(wake - now, signal);
        // The caller's time ran out: it returns without the host.
        if (signal?.aborted) return;
        continue;
      }
      const next = num(item?.next_at);
      const slot = next === null ? now : Math.max(now, next);
      const v = num(item?.v);
      const fields = {
        next_at: slot + interval,
        busy_until: slot + HOST_LEASE_MS,
        expires_at: expiresAt(slot + HOST_LEASE_MS),
      };
      // Only if nobody took the host since it was read: otherwise read again.
      if (!(await this.items.setIfUnchanged(host, item, fields, { takes: true, schedules: false }))) {
        lost++;
        continue;
      }
      this.mine.set(host, (v ?? 0) + 1);
      await sleepUntil(slot, this.now, this.sleep, signal);
      return this.started(host);
    }
    throw new Error(`could not reserve a request slot for ${host} after ${ATTEMPTS} attempts`);
  }

  /**
   * Decides a batch's `pages` of `host` without waiting: when the host is due within
   * MAX_WAIT_IN_FUNCTION_MS, the first page takes it (`taken`) and the rest reserve the next slots;
   * otherwise every page reserves one. `reserved`: the pages come back from a put-back, so they hold
   * the slot that is now (a fresh page queues behind the schedule, one back at its slot does not);
   * `putBacks`: how often they were put back already. One consistent read and one conditional write.
   */
  async admit(
    host: string,
    pages: number,
    opts: {
      minDelayMs?: number;
      reserved?: boolean;
      putBacks?: number;
      /** False: no page takes the host, every page reserves a slot (`reserve`). */
      take?: boolean;
      /** Written on the item (`interval_ms`): the host's interval as its source and robots.txt set it. */
      intervalMs?: number;
    } = {},
  ): Promise<Admission> {
    for (let lost = 0; lost < ATTEMPTS; lost++) {
      const item = await this.items.read(host);
      const now = this.now();
      const interval = Math.max(
        this.intervalMs(null, opts.minDelayMs),
        opts.intervalMs ?? 0,
        num(item?.interval_ms) ?? 0,
      );
      const spacing = Math.max(slotSpacingMs(interval), num(item?.spacing_ms) ?? 0);
      const busyUntil = num(item?.busy_until) ?? 0;
      const v = num(item?.v);
      const { due, start, taken, slots, scheduledUntil } = planAdmission(
        {
          nextAt: num(item?.next_at) ?? 0,
          busyUntil,
          scheduledUntil: num(item?.scheduled_until) ?? 0,
        },
        now,
        pages,
        {
          interval,
          spacing,
          take: opts.take !== false,
          reserved: opts.reserved === true,
          putBacks: opts.putBacks ?? 0,
        },
      );
      const fields: Record<string, number> = {
        ...(opts.intervalMs === undefined ? {} : { interval_ms: interval }),
        ...(due
          ? {
              next_at: start + interval,
              busy_until: start + HOST_LEASE_MS,
              scheduled_until: scheduledUntil,
              expires_at: expiresAt(Math.max(start + HOST_LEASE_MS, scheduledUntil)),
            }
          : { scheduled_until: scheduledUntil, expires_at: expiresAt(Math.max(scheduledUntil, busyUntil)) }),
      };
      if (!due && slots.length === 0) return { taken: 0, slots };
      // Only if nobody took the host (when taking it) or reserved a slot since it was read. A reservation
      // alone leaves the version: the request out now still frees the host with its own write.
      if (!(await this.items.setIfUnchanged(host, item, fields, { takes: due, schedules: true }))) continue;
      if (due) {
        this.mine.set(host, (v ?? 0) + 1);
        this.held.set(host, start);
      }
      return { taken, slots };
    }
    throw new Error(`could not admit a page of ${host} after ${ATTEMPTS} attempts`);
  }

  /**
   * Reserves the next `pages` slots of `host` without taking it (discovery, for the pages it sends: each
   * goes to the queue with a delay to its slot, so it comes back when the host is due, not to be put
   * back). `crawlDelaySeconds` and `minDelayMs` set the host's interval on the item, where every later
   * admission reads it: fetch need not carry it. One consistent read and one conditional write.
   */
  async reserve(
    host: string,
    pages: number,
    pace: { crawlDelaySeconds?: number | null; minDelayMs?: number } = {},
  ): Promise<number[]> {
    const intervalMs = this.intervalMs(pace.crawlDelaySeconds, pace.minDelayMs);
    // A host whose interval is within the bound has its pages fetched one after another in a batch.
    if (pages <= 0 || intervalMs <= MAX_WAIT_IN_FUNCTION_MS) return [];
    const { slots } = await this.admit(host, pages, { take: false, intervalMs });
    return [...slots];
  }

  /** The request to `host` ended: the host is free from one interval after now (or kept for the next). */
  async done(host: string, crawlDelaySeconds?: number | null, minDelayMs?: number): Promise<void> {
    const interval = this.intervalMs(crawlDelaySeconds, minDelayMs);
    const now = this.now();
    const next = now + interval;
    const startedAt = this.startedAt.get(host);
    this.startedAt.delete(host);
    // What admit spaces the host's reserved slots by: this interval and this request's time.
    const pace = {
      interval_ms: interval,
      spacing_ms: slotSpacingMs(interval, startedAt === undefined ? undefined : now - startedAt + 100),
    };
    const mine = this.mine.get(host);
    this.mine.delete(host);
    const inFlight = this.inFlight.get(host) ?? 0;
    if (inFlight > 1) this.inFlight.set(host, inFlight - 1);
    else this.inFlight.delete(host);
    if (mine === undefined) return this.items.keepLaterNext(host, next);
    if (inFlight <= 1 && this.expected.has(host) && (await this.take(host, mine, next, interval, pace))) {
      this.held.set(host, next);
      return;
    }
    if (!(await this.free(host, mine, next, pace))) await this.items.keepLaterNext(host, next);
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
    this.startedAt.set(host, this.now());
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
      await sleepUntil(slot, this.now, this.sleep);
      return true;
    }
    // A little late (the work between admission and the request): the lease, HttpClient's whole budget
    // plus 5 s, still covers the request, and its end sets the next slot anyway.
    if (now <= slot + LATE_START_MS) return true;
    // Late for the kept slot: start now, renewing the lease, unless the lease ran out and someone took
    // the host meanwhile (then queue for it as anyone would).
    return this.take(host, mine, now, interval);
  }

  /** Takes the host for a request starting at `slot`, if this pacer's write is still the last. */
  private take(
    host: string,
    seen: number,
    slot: number,
    interval: number,
    pace: Record<string, number> = {},
  ): Promise<boolean> {
    return this.write(host, seen, {
      ...pace,
      next_at: slot + interval,
      busy_until: slot + HOST_LEASE_MS,
      expires_at: expiresAt(slot + HOST_LEASE_MS),
    });
  }

  /** Frees the host from `next`, if this pacer's write is still the last. */
  private free(
    host: string,
    seen: number,
    next: number,
    pace: Record<string, number> = {},
  ): Promise<boolean> {
    return this.write(host, seen, { ...pace, next_at: next, busy_until: 0, expires_at: expiresAt(next) });
  }

  /** Sets the fields if this pacer's write is still the item's last; false if not. */
  private async write(host: string, seen: number, fields: Record<string, number>): Promise<boolean> {
    if (!(await this.items.setIfVersion(host, seen, fields))) return false;
    this.mine.set(host, seen + 1);
    return true;
  }
}
