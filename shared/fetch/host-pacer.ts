/**
 * Per-host pacing inside one process: consecutive requests to one host are at least
 * max(robots Crawl-delay, configured minimum) apart. Slots are reserved synchronously, so concurrent
 * callers queue up behind each other instead of all firing after the same wait.
 */

export interface HostPacerOptions {
  minDelayMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** The politeness rule: at least max(robots Crawl-delay, configured minimum) between two requests. */
export function pacingIntervalMs(minDelayMs: number, crawlDelaySeconds?: number | null): number {
  const crawl = crawlDelaySeconds && crawlDelaySeconds > 0 ? crawlDelaySeconds * 1000 : 0;
  return Math.max(minDelayMs, crawl);
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class HostPacer {
  private readonly minDelayMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Host → time the last granted request started (or will start). */
  private readonly last = new Map<string, number>();

  constructor(opts: HostPacerOptions) {
    if (!Number.isFinite(opts.minDelayMs) || opts.minDelayMs < 0) throw new Error("minDelayMs must be ≥ 0");
    this.minDelayMs = opts.minDelayMs;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? realSleep;
  }

  /** The gap this host needs between two requests. */
  intervalMs(crawlDelaySeconds?: number | null): number {
    return pacingIntervalMs(this.minDelayMs, crawlDelaySeconds);
  }

  /** How long a request to `host` would wait now, without reserving a slot (to defer instead of sleeping). */
  delayMs(host: string, crawlDelaySeconds?: number | null): number {
    const last = this.last.get(host);
    if (last === undefined) return 0;
    return Math.max(0, last + this.intervalMs(crawlDelaySeconds) - this.now());
  }

  /** Resolves when a request to `host` may start, and reserves that slot. */
  async wait(host: string, crawlDelaySeconds?: number | null): Promise<void> {
    const now = this.now();
    const last = this.last.get(host);
    const slot = last === undefined ? now : Math.max(now, last + this.intervalMs(crawlDelaySeconds));
    this.last.set(host, slot);
    if (slot > now) await this.sleep(slot - now);
  }
}
