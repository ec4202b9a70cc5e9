/**
 * Per-host pacing inside one process, by the rule request-pacing.ts states: one request per host at
 * once, each starting at least the politeness interval (crawl-delay.ts) after the previous one ended.
 * A caller takes the host in `wait` and gives it back in `done`; concurrent callers queue in order
 * behind the request that is out. (Before, `wait` reserved the previous caller's start + the interval,
 * so a request slower than the interval overlapped the next: two fetches of a 300 ms page at a 100 ms
 * interval arrived 89-103 ms apart, on Node 20 and 24 alike: test/shared/fetch/host-pacer.test.ts.)
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

/** One caller queued for a host that is taken. */
interface Waiter {
  /** Set by the request that hands the host over, before `wake`. */
  granted: boolean;
  wake: () => void;
}

/** A host's state: whether a request holds it, when the last one ended, who waits for it. */
interface HostTurn {
  taken: boolean;
  /** When the host's last request ended (undefined: none yet). */
  lastEnd: number | undefined;
  readonly queue: Waiter[];
  /** `done` calls still to come from waits that returned without the host (their signal aborted):
   * each is the caller's "not sent after all" (request-pacing.ts) and frees nothing. */
  unheld: number;
}

export class HostPacer implements Pacer {
  private readonly minDelayMs: number;
  private readonly maxCrawlDelayMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly hosts = new Map<string, HostTurn>();

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

  private turn(host: string): HostTurn {
    let turn = this.hosts.get(host);
    if (!turn) {
      turn = { taken: false, lastEnd: undefined, queue: [], unheld: 0 };
      this.hosts.set(host, turn);
    }
    return turn;
  }

  /**
   * Resolves when a request to `host` may start, having taken the host: after the request out now has
   * ended (`done`), and one interval after that end. A caller with a time budget passes its `signal`,
   * which ends the wait early without the host (discover-run.ts): `Crawl-delay: 3600` cannot stall the
   * sources after it. `minDelayMs` (the source's own) raises the minimum, never lowers it. Every
   * `wait` is followed by one `done`, also one cut short (pacedBy does so).
   */
  async wait(
    host: string,
    crawlDelaySeconds?: number | null,
    minDelayMs?: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const turn = this.turn(host);
    if (!(await this.take(turn, signal))) {
      turn.unheld++;
      return;
    }
    if (turn.lastEnd !== undefined) {
      const slot = turn.lastEnd + this.intervalMs(crawlDelaySeconds, minDelayMs);
      await sleepUntil(slot, this.now, this.sleep, signal);
    }
    if (signal?.aborted) {
      // Nothing is sent: the host goes to the next caller, from the same end as before.
      turn.unheld++;
      this.handOver(turn);
    }
  }

  /** Takes the host at once when it is free and nobody queues for it, or in order when it is handed
   * over; false when `signal` aborts first. */
  private async take(turn: HostTurn, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return false;
    if (!turn.taken) {
      turn.taken = true;
      return true;
    }
    const waiter: Waiter = { granted: false, wake: () => {} };
    await new Promise<void>((resolve) => {
      const leave = () => {
        const i = turn.queue.indexOf(waiter);
        if (i >= 0) turn.queue.splice(i, 1);
        resolve();
      };
      waiter.wake = () => {
        signal?.removeEventListener("abort", leave);
        resolve();
      };
      signal?.addEventListener("abort", leave, { once: true });
      turn.queue.push(waiter);
    });
    if (waiter.granted && signal?.aborted) this.handOver(turn); // handed over as its caller gave up
    return waiter.granted && !signal?.aborted;
  }

  /** The host passes to the first caller queued for it, or is free. */
  private handOver(turn: HostTurn): void {
    const next = turn.queue.shift();
    if (!next) {
      turn.taken = false;
      return;
    }
    next.granted = true;
    next.wake();
  }

  /** A request to `host` has ended: the next starts one interval from now (request-pacing.ts says why). */
  async done(host: string, _crawlDelaySeconds?: number | null, _minDelayMs?: number): Promise<void> {
    const turn = this.turn(host);
    if (turn.unheld > 0) {
      turn.unheld--;
      return;
    }
    turn.lastEnd = this.now();
    this.handOver(turn);
  }
}
