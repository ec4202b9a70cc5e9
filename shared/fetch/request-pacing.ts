/**
 * One politeness rule for every request to a host — robots.txt, sitemaps, feeds, pages and each
 * redirect hop — through one Pacer: the process's HostPacer, or the Hosts table shared by every
 * function (shared/aws/host-pace-table.ts).
 *
 * The gap is counted from the end of one request to the start of the next, not from slot to slot: a
 * request can leave well after its slot (a busy event loop, a storage read in between), and the load
 * bench measured two page requests to one host 138 ms apart under a 200 ms delay when the next slot
 * was counted from the late one's slot (test/shared/fetch/request-pacing.test.ts).
 */
import { hostOf } from "../url/canonical-url";

/** Spaces requests to one host (shared/fetch/crawl-delay.ts gives the interval). */
export interface Pacer {
  /**
   * Resolves when a request to `host` may start, having taken the host: no other request to it is out,
   * and the last one ended at least an interval ago. `minDelayMs` is the source's own minimum gap (its
   * `min_delay_ms`): it raises the pacer's minimum, never lowers it. `signal` (the caller's time budget)
   * ends the wait early: the caller then sends nothing. Each `wait` is followed by one `done`.
   */
  wait(
    host: string,
    crawlDelaySeconds?: number | null,
    minDelayMs?: number,
    signal?: AbortSignal,
  ): Promise<void>;
  /** A request to `host` has ended (answered or failed): the next may start one interval from now. */
  done(host: string, crawlDelaySeconds?: number | null, minDelayMs?: number): Promise<void>;
}

/** What HttpClient calls around each request it sends (the first and every redirect hop). */
export interface RequestPacer {
  /** Resolves when the request to `url` may be sent; false: it must not be (the caller's time ran out). */
  before(url: string): Promise<boolean>;
  /** The request to `url` has ended. */
  after(url: string): Promise<void>;
}

/** The pacing key of a URL (its host, as the FIFO group names it); null for what is not one. */
export function pacingHost(url: string): string | null {
  try {
    return hostOf(url);
  } catch {
    return null; // not a URL HttpClient will send; it refuses it itself
  }
}

/**
 * Paces the requests of one fetch of `url`: its own host with the Crawl-delay its robots.txt states,
 * any other host a redirect leads to at the minimum; `minDelayMs` is the source's own minimum for its
 * host. `signal` (a time budget) ends a wait early, and a wait cut short sends nothing.
 */
export function pacedBy(
  pacer: Pacer,
  url: string,
  crawlDelaySeconds: number | null,
  opts: { minDelayMs?: number; signal?: AbortSignal } = {},
): RequestPacer {
  const { minDelayMs, signal } = opts;
  const stillWanted = () => !signal?.aborted;
  const home = pacingHost(url);
  const delayFor = (host: string) => (host === home ? crawlDelaySeconds : null);
  // The source's own minimum applies to its own host only, as its Crawl-delay does.
  const minFor = (host: string) => (host === home ? minDelayMs : undefined);
  return {
    before: async (hop) => {
      const host = pacingHost(hop);
      if (host === null) return stillWanted();
      await pacer.wait(host, delayFor(host), minFor(host), signal);
      if (stillWanted()) return true;
      // Not sent after all: the host is free again (a shared pacer would otherwise keep it).
      await pacer.done(host, delayFor(host), minFor(host));
      return false;
    },
    after: async (hop) => {
      const host = pacingHost(hop);
      if (host !== null) await pacer.done(host, delayFor(host), minFor(host));
    },
  };
}
