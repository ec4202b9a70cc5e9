/**
 * What a fetch invocation waits for, billed: a batch of k pages, each host's pages in order (one FIFO
 * group) and up to `concurrentHosts` hosts at once (lambdas/fetch.ts). The batch waits as long as its
 * rounds of hosts, each round as long as one host's chain of pages.
 *
 * Which hosts share a batch is the crawl's shape, not the code's: SQS fills a FIFO batch from one message
 * group first, so a host with a backlog of 10 or more pages fills a batch alone (a daily burst: no
 * overlap, the same wait per page as one page per invocation), and a crawl discovered every few minutes
 * has about one page per host queued, so a batch holds about k hosts (a steady crawl: their waits overlap).
 */
import type { Observed, Settings } from "./cost-model";

export interface FetchBatchShape {
  /** Pages of one host in a batch (the chain worked in order); at most the batch size. */
  readonly pagesPerHost: number;
  /**
   * A backlogged host's slot is still held by its previous page, so even its first page in the batch
   * waits out the host delay; a host with a page now and then has its slot free and waits only for the page.
   */
  readonly backlogged: boolean;
  /** Hosts worked at once (MAX_CONCURRENT_HOSTS in lambdas/fetch.ts). */
  readonly concurrentHosts: number;
}

/** Absent a shape: every page of the batch from one backlogged host, as a daily burst delivers them. */
function shapeOf(batchSize: number, s: Pick<Settings, "fetchBatch">): FetchBatchShape {
  return s.fetchBatch ?? { pagesPerHost: batchSize, backlogged: true, concurrentHosts: 1 };
}

/** Hosts in a batch of `batchSize`, pages per host, and the rounds in which they are worked. */
export function fetchBatchRounds(
  batchSize: number,
  s: Pick<Settings, "fetchBatch">,
): { pagesPerHost: number; hosts: number; rounds: number } {
  const shape = shapeOf(batchSize, s);
  const pagesPerHost = Math.max(1, Math.min(batchSize, shape.pagesPerHost));
  const hosts = Math.ceil(batchSize / pagesPerHost);
  const workers = Math.max(1, Math.min(hosts, shape.concurrentHosts));
  return { pagesPerHost, hosts, rounds: Math.ceil(hosts / workers) };
}

/** Billed wait of one invocation: its rounds, each one host's chain of pages. */
export function fetchBatchWaitMs(
  batchSize: number,
  s: Pick<Settings, "fetchBatch" | "pageLatencyMs" | "minHostDelayMs">,
): number {
  const { pagesPerHost, rounds } = fetchBatchRounds(batchSize, s);
  // A paced page waits out the host delay, counted from the end of the previous request to the host
  // (request-pacing.ts), whether that was in this invocation or the last (the Hosts table carries the
  // slot), and then for the publisher: delay + latency. (Until 2026-12-03 this was max(delay, latency),
  // a slot-to-slot reading that priced a daily burst's page 300 ms short.)
  const perPage = s.minHostDelayMs + s.pageLatencyMs;
  const chain = shapeOf(batchSize, s).backlogged
    ? pagesPerHost * perPage
    : s.pageLatencyMs + (pagesPerHost - 1) * perPage;
  return rounds * chain;
}

/** Share of each page's wait for the publisher that is billed: one page's worth per host per round. */
export function fetchPageWaitShare(batchSize: number, s: Pick<Settings, "fetchBatch">): number {
  const { pagesPerHost, rounds } = fetchBatchRounds(batchSize, s);
  return (rounds * pagesPerHost) / batchSize;
}

/**
 * The observation rescaled to another fetch batch size: invocations, their CPU, I/O and log lines, and
 * the FIFO receives and deletes (one each per batch) follow the batch; the sends do not.
 */
export function withFetchBatchSize(obs: Observed, batchSize: number): Observed {
  const fetch = obs.functions.fetch;
  if (!fetch) return obs;
  const scale = batchSize / obs.fetchBatchSize;
  return {
    ...obs,
    fetchBatchSize: batchSize,
    functions: {
      ...obs.functions,
      fetch: {
        ...fetch, // metrics documents are counted per host, whatever the batch size
        invocationsPerArticle: fetch.invocationsPerArticle / scale,
        cpuMs: fetch.cpuMs * scale,
        ioMs: fetch.ioMs * scale,
        appLogBytes: fetch.appLogBytes * scale,
      },
    },
    sqs: {
      ...obs.sqs,
      fifoRequests: obs.sqs.fifoRequests - 2 / obs.fetchBatchSize + 2 / batchSize,
    },
  };
}

/**
 * The Hosts table's units per article with fetch's part at the batch's shape. A host's chain of pages
 * reserves its first slot (a read and a put) and ends each request with one write, which also holds
 * the next request's slot while more of the host's pages follow (shared/aws/host-pace-table.ts; its
 * tests and the fetch handler's count the calls). In the metered run every page was a chain of its
 * own (a read and two writes per request), so a chain of p pages costs 1/p of the reads and
 * (p + 1)/2p of the writes.
 */
export function hostsAtShape<T extends { rru: number; wru: number }>(
  hosts: T,
  obs: Pick<Observed, "fetchBatchSize" | "fetchPacing">,
  s: Pick<Settings, "fetchBatch">,
): T {
  const run = obs.fetchPacing;
  if (!run) return hosts;
  const { pagesPerHost: p } = fetchBatchRounds(obs.fetchBatchSize, s);
  return {
    ...hosts,
    rru: hosts.rru - run.rru + run.rru / p,
    wru: hosts.wru - run.wru + (run.wru * (p + 1)) / (2 * p),
  };
}
