/**
 * What a fetch invocation waits for, billed, since pacing left the function (issue 26): a batch of k
 * messages from the standard queue holds pages of many hosts; each page whose host is due is fetched,
 * up to `concurrentHosts` at once (lambdas/fetch.ts), and waits only for its publisher; a page whose host
 * is not due is put back until its slot (shared/aws/host-pace-table.ts) and costs its share of a receive,
 * a visibility change, an admission and a Frontier note, but no wait. Only a host whose interval is
 * within MAX_WAIT_IN_FUNCTION_MS has several pages fetched in one batch, one after another.
 *
 * Discovery reserves each page's slot on its host's schedule and delays the message to it
 * (shared/crawl/page-slots.ts), so in a daily burst a page comes when its host is due: the metered run
 * (5 hosts × 30 pages at 1 s) put back 2 of 150 pages. Before, every page after a host's first was
 * received once before its slot and put back with an admission and a Frontier note. What is left is
 * SQS's 15-minute cap on a delay: a page whose slot is later comes early, every 15 minutes until its slot,
 * and is sent again delayed towards it (`earlyPerPage`: a receive, a send and a delete share each, no
 * table call; not put back, which would hold it in flight). How many deliveries that is depends on how a
 * day's pages spread over the hosts (host-sizes.ts).
 */

import { SQS_MAX_DELAY_MS } from "../shared/aws/queue-sender";
import { DEFAULT_MIN_HOST_DELAY_MS } from "../shared/fetch/crawl-delay";
import { slotSpacingMs } from "../shared/fetch/host-slots";
import type { Observed, Settings } from "./cost-model";
import { DEFAULT_HOST_SPREAD, zipfHostSizes } from "./host-sizes";

export interface FetchBatchShape {
  /** Pages of one host fetched in a batch (one after another): 1 unless its interval is within the bound. */
  readonly pagesPerHost: number;
  /** Deliveries of a page admitted and put back until a slot, on average (0: its host is due when it
   * comes): each an admission, a Frontier note and SQS requests. */
  readonly putBacksPerPage: number;
  /** Deliveries of a page before the slot discovery gave it (its delay capped at 15 minutes, one every
   * 15 minutes until the slot), on average: each only SQS requests. Absent: 0. */
  readonly earlyPerPage?: number;
  /** Hosts worked at once (MAX_CONCURRENT_HOSTS in lambdas/fetch.ts). */
  readonly concurrentHosts: number;
}

/** Deliveries before its slot of a page whose slot is `slotMs` after its send: one every SQS_MAX_DELAY_MS
 * until the slot is within one delay. */
export function earlyDeliveriesOf(slotMs: number): number {
  return Math.max(0, Math.ceil((slotMs - SQS_MAX_DELAY_MS) / SQS_MAX_DELAY_MS));
}

/**
 * Early deliveries per page of a day whose pages discovery sends all at once: host pages j = 0, 1, …
 * have slots j × `spacingMs` after the send.
 */
export function earlyPerPageOfDay(hostSizes: readonly number[], spacingMs: number): number {
  let early = 0;
  let pages = 0;
  for (const n of hostSizes) {
    pages += n;
    for (let j = 0; j < n; j++) early += earlyDeliveriesOf(j * spacingMs);
  }
  return pages === 0 ? 0 : early / pages;
}

/** A day's pages at the design's size over its hosts (the scale simulation's spread). */
const DESIGN_DAY = { hosts: 10_000, pages: 5_000_000 };

/**
 * A daily burst at the defaults: one page per host fetched in a batch, 3 hosts at once; put back as the
 * metered run measured (2 of 150 pages, rounded up); early, the pages past the 15-minute delay at 2 s
 * slots (a 1 s delay and a request) in the design's day, every 15 minutes until the slot: ~7.5 a page.
 */
export const DAILY_BURST: FetchBatchShape = {
  pagesPerHost: 1,
  putBacksPerPage: 0.02,
  earlyPerPage: earlyPerPageOfDay(
    zipfHostSizes(DESIGN_DAY.hosts, DESIGN_DAY.pages, DEFAULT_HOST_SPREAD),
    slotSpacingMs(DEFAULT_MIN_HOST_DELAY_MS),
  ),
  concurrentHosts: 3,
};

function shapeOf(s: Pick<Settings, "fetchBatch">): FetchBatchShape {
  return s.fetchBatch ?? DAILY_BURST;
}

/** Put-backs per fetched page at the settings' shape. */
export function putBacksPerPage(s: Pick<Settings, "fetchBatch">): number {
  return Math.max(0, shapeOf(s).putBacksPerPage);
}

/** An invocation of early deliveries alone (they come in waves, 15 minutes after their sends): the
 * batch's parse and one SendMessageBatch, no table call. Assumed, not measured in AWS: an in-region
 * SQS request takes ~10–30 ms. */
export const EARLY_BATCH_MS = 40;

/** Deliveries before the page's slot per fetched page at the settings' shape (SQS requests only). */
export function earlyPerPage(s: Pick<Settings, "fetchBatch">): number {
  return Math.max(0, shapeOf(s).earlyPerPage ?? 0);
}

/** Of a batch of `batchSize` deliveries: pages fetched, hosts fetched, and the rounds they are worked in. */
export function fetchBatchRounds(
  batchSize: number,
  s: Pick<Settings, "fetchBatch">,
): { fetched: number; pagesPerHost: number; hosts: number; rounds: number } {
  const shape = shapeOf(s);
  // Early deliveries come in batches of their own (scale-sim.ts: in waves), not among fetched pages.
  const fetched = batchSize / (1 + putBacksPerPage(s));
  const pagesPerHost = Math.max(1, Math.min(fetched, shape.pagesPerHost));
  const hosts = Math.max(1, fetched / pagesPerHost);
  const workers = Math.max(1, Math.min(hosts, shape.concurrentHosts));
  return { fetched, pagesPerHost, hosts, rounds: Math.ceil(hosts / workers) };
}

/** Billed wait of one invocation: its rounds, each one host's page (or chain of pages within the bound). */
export function fetchBatchWaitMs(
  batchSize: number,
  s: Pick<Settings, "fetchBatch" | "pageLatencyMs" | "minHostDelayMs">,
): number {
  const { pagesPerHost, rounds } = fetchBatchRounds(batchSize, s);
  // A host is due when its page is fetched: the first page waits only for the publisher. A chain (an
  // interval within the bound) waits the interval before each later page, from the previous one's end.
  const chain = s.pageLatencyMs + (pagesPerHost - 1) * (s.minHostDelayMs + s.pageLatencyMs);
  return rounds * chain;
}

/** Share of each fetched page's wait for the publisher that is billed: one page's worth per round. */
export function fetchPageWaitShare(batchSize: number, s: Pick<Settings, "fetchBatch">): number {
  const { fetched, pagesPerHost, rounds } = fetchBatchRounds(batchSize, s);
  return Math.min(1, (rounds * pagesPerHost) / fetched);
}

/**
 * The observation rescaled to another fetch batch size: invocations, their CPU and I/O, and the FIFO
 * receives and deletes (one each per batch) follow the batch; the sends do not, nor an invocation's log
 * bytes (one line for its batch at INFO; a page's own lines are DEBUG, or its failure's WARN/ERROR).
 */
export function withFetchBatchSize(obs: Observed, batchSize: number): Observed {
  const fetch = obs.functions.fetch;
  if (!fetch) return obs;
  const scale = batchSize / obs.fetchBatchSize;
  // A batch hands its articles to dedup in one send (shared/crawl/dedup-handoff.ts): sends follow invocations.
  const dedupSends = obs.sqs.fetchDedupSends ?? 0;
  return {
    ...obs,
    fetchBatchSize: batchSize,
    functions: {
      ...obs.functions,
      fetch: {
        ...fetch, // metrics documents are counted per host, log lines per invocation, whatever the batch
        invocationsPerArticle: fetch.invocationsPerArticle / scale,
        cpuMs: fetch.cpuMs * scale,
        ioMs: fetch.ioMs * scale,
      },
    },
    sqs: {
      ...obs.sqs,
      fetchQueueRequests: obs.sqs.fetchQueueRequests - 2 / obs.fetchBatchSize + 2 / batchSize,
      standardRequests: obs.sqs.standardRequests - dedupSends + dedupSends / scale,
      fetchDedupSends: dedupSends / scale,
    },
  };
}

/**
 * The Hosts table's units per article with fetch's part at the batch's shape: each delivery of a page
 * admits its host (a consistent read and a conditional write; a host's pages in one batch share it), and
 * each request's end writes once (shared/aws/host-pace-table.ts; the fetch handler's test counts the
 * calls). The metered run's fetch part is replaced by that; discovery's part stays as measured.
 */
export function hostsAtShape<T extends { rru: number; wru: number }>(
  hosts: T,
  obs: Pick<Observed, "fetchBatchSize" | "fetchPacing">,
  s: Pick<Settings, "fetchBatch">,
): T {
  const run = obs.fetchPacing;
  if (!run) return hosts;
  const { pagesPerHost } = fetchBatchRounds(obs.fetchBatchSize, s);
  // Each delivery admits its host: the fetched one, and each put back.
  const admissions = 1 / pagesPerHost + putBacksPerPage(s);
  return { ...hosts, rru: hosts.rru - run.rru + admissions, wru: hosts.wru - run.wru + admissions + 1 };
}
