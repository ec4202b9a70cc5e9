/**
 * Per-host pacing inside one process: consecutive requests to one host are at least the politeness
 * rule's interval apart (crawl-delay.ts). Slots are reserved synchronously, so concurrent callers
 * queue up behind each other instead of all firing after the same wait.
 */
import { hostIntervalMs, MAX_CRAWL_DELAY_MS } from "./crawl-delay";
import type { Pacer } from "./request-pacing";

export interface HostPacerOptions {
  minDelayMs: number;
  /** The Crawl-delay cap (default MAX_CRAWL_DELAY_MS); tests shorten it to pace with real timers. */
  maxCrawlDelayMs?: number;
  now?: () => number;
  /** Sleeps `ms`, or less when `signal` aborts (default sleepMs). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** setTimeout's largest delay (2^31 − 1 ms): Node fires a longer one after 1 ms instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Sleeps `ms`, in timer-sized steps, so no delay overflows into an immediate wake-up; returns at once,
 * without error, when `signal` aborts. */
export async function sleepMs(ms: number, signal?: AbortSignal): Promise<void> {
  let left = ms;
  while (left > 0 && !signal?.aborted) {
    const step = Math.min(left, MAX_TIMER_MS);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, step);
      signal?.addEventListener("abort", done, { once: true });
    });
    left -= step;
  }
}

/**
 * Sleeps until the clock `now` reaches `at` (or `signal` aborts). Node's timers run on a monotonic
 * clock and may fire a millisecond before Date.now() shows the delay passed: the 20,000-page load bench
 * measured a 999 ms gap between two requests to a host at a 1,000 ms host delay. So after a sleep that
 * the clock saw pass, the rest is slept too; a clock that did not move (a test's) ends the wait.
 */
export async function sleepUntil(
  at: number,
  now: () => number,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void> = sleepMs,
  signal?: AbortSignal,
): Promise<void> {
  for (let before = now(); at > before && !signal?.aborted; ) {
    await sleep(at - before, signal);
    const after = now();
    if (after === before) return;
    before = after;
  }
}

export class HostPacer implements Pacer {
  private readonly minDelayMs: number;
  private readonly maxCrawlDelayMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Host → the last granted request's start (or when it will start), or the end of the last request. */
  private readonly last = new Map<string, number>();

  constructor(opts: HostPacerOptions) {
    if (!Number.isFinite(opts.minDelayMs) || opts.minDelayMs < 0) throw new Error("minDelayMs must be ≥ 0");
    this.minDelayMs = opts.minDelayMs;
    this.maxCrawlDelayMs = opts.maxCrawlDelayMs ?? MAX_CRAWL_DELAY_MS;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? sleepMs;
  }

  /** The gap this host needs between two requests. */
  intervalMs(crawlDelaySeconds?: number | null, minDelayMs = 0): number {
    return hostIntervalMs(Math.max(this.minDelayMs, minDelayMs), crawlDelaySeconds, this.maxCrawlDelayMs);
  }

  /** When the next request to `host` may start. */
  private nextSlot(
    host: string,
    crawlDelaySeconds: number | null | undefined,
    now: number,
    minDelayMs?: number,
  ): number {
    const last = this.last.get(host);
    return last === undefined ? now : Math.max(now, last + this.intervalMs(crawlDelaySeconds, minDelayMs));
  }

  /**
   * Resolves when a request to `host` may start, and reserves that slot. A caller with a time budget
   * passes its `signal`, which ends the wait early (discover-run.ts): `Crawl-delay: 3600` cannot stall
   * the sources after it. `minDelayMs` (the source's own) raises the minimum, never lowers it.
   */
  async wait(
    host: string,
    crawlDelaySeconds?: number | null,
    minDelayMs?: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const now = this.now();
    const slot = this.nextSlot(host, crawlDelaySeconds, now, minDelayMs);
    this.last.set(host, slot);
    await sleepUntil(slot, this.now, this.sleep, signal);
  }

  /** A request to `host` has ended: the next starts one interval from now (request-pacing.ts says why). */
  async done(host: string, _crawlDelaySeconds?: number | null, _minDelayMs?: number): Promise<void> {
    const now = this.now();
    // A slot already granted later (a concurrent caller queued behind this request) stays.
    this.last.set(host, Math.max(now, this.last.get(host) ?? now));
  }
}
