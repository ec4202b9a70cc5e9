/**
 * A discrete-event model of a day's crawl at scale, run through the rules the functions follow:
 * - fetch queue (FIFO, one message group per host): a receive takes as many messages of one group as it
 *   can (up to the batch size), then fills the batch from other groups; a group with messages in flight
 *   gives none until they are deleted (its batch ended). Among available groups the one whose oldest
 *   message is oldest goes first.
 * - fetch λ: at most `maxConcurrency` batches at once (the event source mapping's maximum concurrency);
 *   a batch's hosts are worked `concurrentHosts` at a time, each host's pages in order.
 * - pacing (the Hosts lease): a request to a host starts no earlier than `delay` after the end of the
 *   previous request to it, whoever sent it; the page then takes `latency`; extraction's CPU follows.
 * - dedup queue (standard): batches of up to `batchSize` whatever is waiting, `maxConcurrency` at once,
 *   each article taking `msPerArticle`.
 * Events are invocations and discovery runs, not pages (a host's chain in a batch is worked out in one
 * step), so 5 million pages take seconds. Counters per second feed the key and table rates (scale-limits.ts).
 */
import { splitmix32 } from "../shared/dedup/hash";
import { EventHeap } from "./event-heap";

export interface FetchStage {
  readonly batchSize: number;
  /**
   * How a receive fills a batch: SQS takes as many of one group's messages as it can first ("sqs");
   * the local emulator (fauxqs) hands out one message per group per receive ("one-per-group").
   */
  readonly fill?: "sqs" | "one-per-group";
  readonly maxConcurrency: number;
  /** Hosts of one batch worked at once (MAX_CONCURRENT_HOSTS in lambdas/fetch.ts). */
  readonly concurrentHosts: number;
  /** Extraction and the writes after a page, ms (they overlap the host delay that follows). */
  readonly cpuMsPerPage: number;
}

export interface DedupStage {
  readonly batchSize: number;
  readonly maxConcurrency: number;
  readonly msPerArticle: number;
}

/**
 * How the day's URLs reach the fetch queue. Each discovery run reaches the hosts in a random order (big
 * hosts anywhere in it), spread over `spreadMs` (discovery's own duration: sources over its concurrency).
 */
export type Arrival =
  /** One run at the scheduled hour: every host's day of URLs at once. */
  | { readonly kind: "burst"; readonly spreadMs: number }
  /** A run every `intervalMs` over the day, each finding each host's pages since the last. */
  | { readonly kind: "steady"; readonly intervalMs: number; readonly spreadMs: number };

export interface ScaleInputs {
  /** Pages per host for the day (host-sizes.ts). */
  readonly hostPages: readonly number[];
  readonly minHostDelayMs: number;
  readonly pageLatencyMs: number;
  readonly arrival: Arrival;
  readonly fetch: FetchStage;
  readonly dedup: DedupStage;
  readonly seed: number;
  /** One story carried by this many hosts (distinct, chosen at random), as each one's first page. */
  readonly syndicatedCopies: number;
}

export interface ScaleResult {
  readonly pages: number;
  /** From the first URL's arrival until the last page is fetched, s. */
  readonly fetchedAllS: number;
  /** Until the last article has passed dedup, s. */
  readonly dedupedAllS: number;
  readonly peakConcurrency: { readonly fetch: number; readonly dedup: number };
  /** Most fetch messages received and not yet deleted at once. */
  readonly fifoInFlightPeak: number;
  readonly fetchInvocations: number;
  /** Sum of fetch invocations' durations, ms (what Lambda bills, before memory). */
  readonly fetchBilledMs: number;
  /** Longest a fetch message waited in the queue before its batch began, s. */
  readonly fetchMaxWaitS: number;
  /** Mean pages of one host in one batch (the chain the Hosts table reserves once). */
  readonly pagesPerHostInBatch: number;
  readonly dedupInvocations: number;
  readonly dedupQueuePeak: number;
  /** Longest an article waited in the dedup queue, s. */
  readonly dedupMaxWaitS: number;
  /** Pages fetched per second, by second since the start. */
  readonly fetchedPerSecond: readonly number[];
  /** Articles finished by dedup per second. */
  readonly dedupedPerSecond: readonly number[];
  /** Most requests one host received in any second. */
  readonly busiestHostPerSecond: number;
  /** Copies of the syndicated story fetched per second (its copies reach dedup at most this fast). */
  readonly syndicatedPerSecond: readonly number[];
  /** Hosts whose last page ended after 24 h. */
  readonly hostsPast24h: number;
  readonly events: number;
}

type SimEvent =
  | { readonly kind: "discover"; readonly event: number }
  | { readonly kind: "fetchEnd"; readonly hosts: readonly number[]; readonly pages: number }
  | { readonly kind: "dedupEnd" };

const DAY_MS = 86_400_000;

function bump(perSecond: number[], ms: number, by = 1): void {
  const s = Math.floor(ms / 1000);
  while (perSecond.length <= s) perSecond.push(0);
  perSecond[s]! += by;
}

/** Discovery events per run: hosts reached in slices, not one event per host. */
const SLICES_PER_RUN = 200;

/** The day's URLs as arrivals: per discovery event (a slice of one run's hosts), per host, how many. */
function arrivalPlan(inputs: ScaleInputs): { times: number[]; perEvent: (e: number) => [number, number][] } {
  const n = inputs.hostPages.length;
  const a = inputs.arrival;
  const rnd = splitmix32(inputs.seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rnd() % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const runs = a.kind === "burst" ? 1 : Math.max(1, Math.round(DAY_MS / a.intervalMs));
  const runMs = a.kind === "burst" ? 0 : a.intervalMs;
  const spread = a.kind === "burst" ? a.spreadMs : Math.min(a.spreadMs, a.intervalMs);
  const slices = Math.min(n, SLICES_PER_RUN);
  const times: number[] = [];
  for (let r = 0; r < runs; r++)
    for (let sl = 0; sl < slices; sl++) times.push(r * runMs + (spread * sl) / slices);
  return {
    times,
    perEvent: (e) => {
      const run = Math.floor(e / slices);
      const sl = e % slices;
      const out: [number, number][] = [];
      for (let rank = Math.floor((n * sl) / slices); rank < Math.floor((n * (sl + 1)) / slices); rank++) {
        const h = order[rank]!;
        const total = inputs.hostPages[h]!;
        // Each run finds what the host published since the last: its day's pages spread evenly.
        const k = Math.floor((total * (run + 1)) / runs) - Math.floor((total * run) / runs);
        if (k > 0) out.push([h, k]);
      }
      return out;
    },
  };
}

export function simulateScale(inputs: ScaleInputs): ScaleResult {
  const { fetch, dedup, minHostDelayMs: delay, pageLatencyMs: latency } = inputs;
  const n = inputs.hostPages.length;
  const events = new EventHeap<SimEvent>();
  // Per host: its waiting messages as (arrival time, count) chunks, oldest first.
  const chunkTimes: number[][] = Array.from({ length: n }, () => []);
  const chunkCounts: number[][] = Array.from({ length: n }, () => []);
  const head = new Int32Array(n);
  const pending = new Float64Array(n);
  const inFlight = new Uint8Array(n);
  const queued = new Uint8Array(n);
  const nextFreeAt = new Float64Array(n);
  const firstEnd = new Float64Array(n).fill(Number.NaN);
  const lastEnd = new Float64Array(n);
  const available = new EventHeap<number>(); // hosts that may give messages, by oldest message

  const plan = arrivalPlan(inputs);
  for (let event = 0; event < plan.times.length; event++)
    events.push(plan.times[event]!, { kind: "discover", event });
  const start = plan.times[0] ?? 0;

  let freeFetch = fetch.maxConcurrency;
  let freeDedup = dedup.maxConcurrency;
  let fetchRunning = 0;
  let dedupRunning = 0;
  const peak = { fetch: 0, dedup: 0 };
  let inFlightMessages = 0;
  let fifoInFlightPeak = 0;
  let fetchInvocations = 0;
  let fetchBilledMs = 0;
  let chains = 0;
  let pagesDone = 0;
  let lastFetchEnd = start;
  const fetchedPerSecond: number[] = [];
  const dedupedPerSecond: number[] = [];
  let busiestHostPerSecond = 0;
  // The dedup queue: (arrival time, count) chunks, oldest first.
  const dq: { t: number; k: number }[] = [];
  let dqHead = 0;
  let dqWaiting = 0;
  let dqPeak = 0;
  let dqMaxWait = 0;
  let dedupInvocations = 0;
  let lastDedupEnd = start;
  let eventCount = 0;

  const offer = (h: number) => {
    if (inFlight[h] || queued[h] || pending[h] === 0) return;
    queued[h] = 1;
    available.push(chunkTimes[h]![head[h]!]!, h);
  };

  let fetchMaxWait = 0;
  /** Takes up to `k` of the host's waiting messages, oldest first, at `now`. */
  const take = (h: number, k: number, now: number): number => {
    let got = 0;
    const counts = chunkCounts[h]!;
    while (got < k && head[h]! < counts.length) {
      const i = head[h]!;
      fetchMaxWait = Math.max(fetchMaxWait, now - chunkTimes[h]![i]!);
      const m = Math.min(k - got, counts[i]!);
      counts[i]! -= m;
      got += m;
      if (counts[i] === 0) head[h]!++;
    }
    pending[h]! -= got;
    return got;
  };

  /** One host's pages in order from `t`: returns when the worker is free for the next host. */
  const chain = (h: number, k: number, t0: number): number => {
    let t = t0;
    let windowStart = Number.NEGATIVE_INFINITY;
    let inWindow = 0;
    for (let j = 0; j < k; j++) {
      const begin = Math.max(t, nextFreeAt[h]!);
      const end = begin + latency;
      nextFreeAt[h] = end + delay;
      if (begin - windowStart >= 1000) {
        windowStart = begin;
        inWindow = 0;
      }
      busiestHostPerSecond = Math.max(busiestHostPerSecond, ++inWindow);
      if (Number.isNaN(firstEnd[h]!)) firstEnd[h] = end;
      lastEnd[h] = end;
      bump(fetchedPerSecond, end - start);
      t = end + fetch.cpuMsPerPage;
    }
    pagesDone += k;
    chains++;
    return t;
  };

  const dispatchFetch = (now: number) => {
    while (freeFetch > 0 && available.size > 0) {
      const hosts: number[] = [];
      const counts: number[] = [];
      let room = fetch.batchSize;
      while (room > 0 && available.size > 0) {
        const h = available.pop()!.value;
        queued[h] = 0;
        const k = take(h, fetch.fill === "one-per-group" ? 1 : room, now);
        room -= k;
        inFlight[h] = 1;
        hosts.push(h);
        counts.push(k);
      }
      const pages = fetch.batchSize - room;
      freeFetch--;
      fetchRunning++;
      peak.fetch = Math.max(peak.fetch, fetchRunning);
      inFlightMessages += pages;
      fifoInFlightPeak = Math.max(fifoInFlightPeak, inFlightMessages);
      const workers = new Array<number>(Math.max(1, Math.min(fetch.concurrentHosts, hosts.length))).fill(now);
      hosts.forEach((h, i) => {
        let w = 0;
        for (let x = 1; x < workers.length; x++) if (workers[x]! < workers[w]!) w = x;
        workers[w] = chain(h, counts[i]!, workers[w]!);
      });
      const end = Math.max(...workers);
      fetchInvocations++;
      fetchBilledMs += end - now;
      events.push(end, { kind: "fetchEnd", hosts, pages });
    }
  };

  const dispatchDedup = (now: number) => {
    while (freeDedup > 0 && dqWaiting > 0) {
      let k = 0;
      while (k < dedup.batchSize && dqHead < dq.length) {
        const c = dq[dqHead]!;
        dqMaxWait = Math.max(dqMaxWait, now - c.t);
        const m = Math.min(dedup.batchSize - k, c.k);
        c.k -= m;
        k += m;
        if (c.k === 0) dqHead++;
      }
      dqWaiting -= k;
      // Drop the chunks already taken now and then, so a day of batches does not pile up in memory.
      if (dqHead > 4096 && dqHead * 2 > dq.length) {
        dq.splice(0, dqHead);
        dqHead = 0;
      }
      freeDedup--;
      dedupRunning++;
      peak.dedup = Math.max(peak.dedup, dedupRunning);
      for (let i = 1; i <= k; i++) bump(dedupedPerSecond, now + i * dedup.msPerArticle - start);
      dedupInvocations++;
      events.push(now + k * dedup.msPerArticle, { kind: "dedupEnd" });
    }
  };

  for (let e = events.pop(); e !== undefined; e = events.pop()) {
    eventCount++;
    const now = e.time;
    const ev = e.value;
    if (ev.kind === "discover") {
      for (const [h, k] of plan.perEvent(ev.event)) {
        chunkTimes[h]!.push(now);
        chunkCounts[h]!.push(k);
        pending[h]! += k;
        offer(h);
      }
    } else if (ev.kind === "fetchEnd") {
      fetchRunning--;
      freeFetch++;
      inFlightMessages -= ev.pages;
      lastFetchEnd = Math.max(lastFetchEnd, now);
      for (const h of ev.hosts) {
        inFlight[h] = 0;
        offer(h);
      }
      // Fetch sends each article to dedup as it finishes; here the batch's articles arrive at its end.
      dq.push({ t: now, k: ev.pages });
      dqWaiting += ev.pages;
      dqPeak = Math.max(dqPeak, dqWaiting);
    } else {
      dedupRunning--;
      freeDedup++;
      lastDedupEnd = Math.max(lastDedupEnd, now);
    }
    // Everything that happens at this instant first: a poll then sees all of it.
    if (events.peekTime() === now) continue;
    dispatchFetch(now);
    dispatchDedup(now);
  }

  // The syndicated story: its copies are the first pages of that many distinct hosts.
  const rnd = splitmix32(inputs.seed ^ 0x5eed);
  const withPages = Array.from({ length: n }, (_, h) => h).filter((h) => inputs.hostPages[h]! > 0);
  const syndicatedPerSecond: number[] = [];
  for (let i = 0; i < Math.min(inputs.syndicatedCopies, withPages.length); i++) {
    const j = i + (rnd() % (withPages.length - i));
    [withPages[i], withPages[j]] = [withPages[j]!, withPages[i]!];
    bump(syndicatedPerSecond, firstEnd[withPages[i]!]! - start);
  }
  let hostsPast24h = 0;
  for (let h = 0; h < n; h++) if (lastEnd[h]! - start > DAY_MS) hostsPast24h++;

  return {
    pages: pagesDone,
    fetchedAllS: (lastFetchEnd - start) / 1000,
    dedupedAllS: (lastDedupEnd - start) / 1000,
    peakConcurrency: peak,
    fifoInFlightPeak,
    fetchInvocations,
    fetchBilledMs,
    fetchMaxWaitS: fetchMaxWait / 1000,
    pagesPerHostInBatch: chains > 0 ? pagesDone / chains : 0,
    dedupInvocations,
    dedupQueuePeak: dqPeak,
    dedupMaxWaitS: dqMaxWait / 1000,
    fetchedPerSecond,
    dedupedPerSecond,
    busiestHostPerSecond,
    syndicatedPerSecond,
    hostsPast24h,
    events: eventCount,
  };
}
