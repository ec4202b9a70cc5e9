/**
 * A discrete-event model of a day's crawl at scale, run through the rules the functions follow since
 * issue 26 (a fetch never pays to wait for a host):
 * - discovery reserves each page a slot on its host's schedule (HostPaceTable.reserve): the host's slots
 *   follow each other `slotSpacingMs` apart (its delay plus a request, to the whole second), after those
 *   already reserved; the page is sent delayed to its slot, at most SQS's 15 minutes.
 * - fetch queue (standard): a page is visible from its slot. One whose slot is past SQS's 15-minute delay
 *   comes early every 15 minutes and is sent again, delayed towards its slot (lambdas/fetch.ts); a page
 *   put back instead would be in flight until its slot, and SQS holds about 120,000 in flight a queue
 *   (a daily burst of 5 M pages: 2.8 M). The in-flight count is the batches' pages and the put-backs'.
 * - fetch λ: at most `maxConcurrency` batches at once; a batch takes up to `batchSize` visible pages, any
 *   hosts. A page whose host is taken, or not free within MAX_WAIT_IN_FUNCTION_MS, goes back to the end
 *   of its host's schedule (a put-back); the rest take their hosts, `concurrentHosts` at once, each
 *   request `latency` long, the host free `delay` after its end; extraction's CPU follows each.
 * - dedup queue (standard): batches of up to `batchSize` whatever is waiting, `maxConcurrency` at once,
 *   each article taking `msPerArticle`.
 * Events are pages (a host's head page in a heap of hosts, so the heap holds hosts, not pages) and
 * invocations: 5 million pages take about a minute. Counters per second feed scale-limits.ts.
 */

import { FetchQueueReturn } from "../shared/aws/fetch-queue-return";
import { splitmix32 } from "../shared/dedup/hash";
import { MAX_WAIT_IN_FUNCTION_MS, slotSpacingMs } from "../shared/fetch/host-slots";
import { EventHeap } from "./event-heap";
import { EARLY_BATCH_MS, earlyDeliveriesOf } from "./fetch-batch";

export interface FetchStage {
  readonly batchSize: number;
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
  /** Most fetch messages received and not yet deleted at once: the batches' and the pages put back. */
  readonly inFlightPeak: number;
  readonly fetchInvocations: number;
  /** Sum of fetch invocations' durations, ms (what Lambda bills, before memory). */
  readonly fetchBilledMs: number;
  /** Longest a fetch message waited, visible, before a batch took it, s (the backlog; not its slot's wait). */
  readonly fetchMaxWaitS: number;
  /** Longest a page waited from discovery until its request, s (not what the queue's age alarm sees: a page
   * sent again is a new message, whose age starts then). */
  readonly oldestPageS: number;
  /** Deliveries before a page's slot (the 15-minute delay cap): each a receive and a visibility change. */
  readonly earlyDeliveries: number;
  /** Pages that found their host taken at their slot and went back to its schedule. */
  readonly putBacks: number;
  /** Fetch receives per page (1 + early deliveries and put-backs a page). */
  readonly receivesPerPage: number;
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
  | { readonly kind: "fetchEnd"; readonly articles: number }
  | { readonly kind: "dedupEnd" };

/** A visible message: the head page of a host (its pages in slot order), or a page put back. */
type Visible = { readonly host: number; readonly putBack: boolean };

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

/** A whole number of seconds from `from` (SQS's unit), at least `ms` after it. */
const wholeSecondsAfter = (from: number, at: number) =>
  from + Math.ceil(Math.max(0, at - from) / 1000) * 1000;

export function simulateScale(inputs: ScaleInputs): ScaleResult {
  const { fetch, dedup, minHostDelayMs: delay, pageLatencyMs: latency } = inputs;
  const n = inputs.hostPages.length;
  // The slot spacing the host's item holds once its first request has ended (done's spacing_ms).
  const spacing = slotSpacingMs(delay, latency + 100);
  const events = new EventHeap<SimEvent>();
  // Every page of the day has a place: host h's pages at offset[h] … offset[h] + hostPages[h] - 1.
  const offset = new Float64Array(n + 1);
  for (let h = 0; h < n; h++) offset[h + 1] = offset[h]! + inputs.hostPages[h]!;
  const total = offset[n]!;
  const slot = new Float64Array(total);
  const sentAt = new Float64Array(total);
  const added = new Int32Array(n); // pages of the host discovered so far
  const head = new Int32Array(n); // its next page not yet received for good
  const scheduledUntil = new Float64Array(n);
  const freeAt = new Float64Array(n); // the host's next request may start then (the lease's rule)
  const windowStart = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);
  const inWindow = new Int32Array(n);
  const firstEnd = new Float64Array(n).fill(Number.NaN);
  const lastEnd = new Float64Array(n);
  const visible = new EventHeap<Visible>();
  const heads = new Uint8Array(n); // the host's head page is in `visible`

  const plan = arrivalPlan(inputs);
  for (let event = 0; event < plan.times.length; event++)
    events.push(plan.times[event]!, { kind: "discover", event });
  const start = plan.times[0] ?? 0;

  let freeFetch = fetch.maxConcurrency;
  let freeDedup = dedup.maxConcurrency;
  let fetchRunning = 0;
  let dedupRunning = 0;
  const peak = { fetch: 0, dedup: 0 };
  // Messages received and not deleted: a batch's from its start to its end, a put-back page's until it
  // is visible again. `leaving`: when each leaves.
  let inFlight = 0;
  let inFlightPeak = 0;
  const leaving = new EventHeap<number>();
  const flight = (now: number, until: number, k = 1) => {
    while ((leaving.peekTime() ?? Number.POSITIVE_INFINITY) <= now) inFlight -= leaving.pop()!.value;
    inFlight += k;
    inFlightPeak = Math.max(inFlightPeak, inFlight);
    leaving.push(until, k);
  };
  let fetchInvocations = 0;
  let fetchBilledMs = 0;
  let fetchMaxWait = 0;
  let oldestPage = 0;
  let early = 0;
  let putBacks = 0;
  let received = 0;
  let pagesDone = 0;
  let lastFetchEnd = start;
  const fetchedPerSecond: number[] = [];
  const dedupedPerSecond: number[] = [];
  let busiestHostPerSecond = 0;
  const dq: { t: number; k: number }[] = [];
  let dqHead = 0;
  let dqWaiting = 0;
  let dqPeak = 0;
  let dqMaxWait = 0;
  let dedupInvocations = 0;
  let lastDedupEnd = start;
  let eventCount = 0;

  const offerHead = (h: number) => {
    if (heads[h] || head[h]! >= added[h]!) return;
    heads[h] = 1;
    visible.push(slot[offset[h]! + head[h]!]!, { host: h, putBack: false });
  };

  const request = (h: number, t0: number): number => {
    const begin = Math.max(t0, freeAt[h]!);
    const end = begin + latency;
    freeAt[h] = end + delay;
    if (begin - windowStart[h]! >= 1000) {
      windowStart[h] = begin;
      inWindow[h] = 0;
    }
    busiestHostPerSecond = Math.max(busiestHostPerSecond, ++inWindow[h]!);
    if (Number.isNaN(firstEnd[h]!)) firstEnd[h] = end;
    lastEnd[h] = end;
    bump(fetchedPerSecond, end - start);
    return end + fetch.cpuMsPerPage;
  };

  const dispatchFetch = (now: number) => {
    while (freeFetch > 0 && (visible.peekTime() ?? Number.POSITIVE_INFINITY) <= now) {
      const taken: number[] = [];
      const inBatch = new Set<number>();
      let messages = 0;
      while (messages < fetch.batchSize && (visible.peekTime() ?? Number.POSITIVE_INFINITY) <= now) {
        const { time, value } = visible.pop()!;
        const h = value.host;
        messages++;
        received++;
        fetchMaxWait = Math.max(fetchMaxWait, now - time);
        if (!value.putBack) {
          const p = offset[h]! + head[h]!;
          heads[h] = 0;
          oldestPage = Math.max(oldestPage, now - sentAt[p]!);
          head[h]!++;
          offerHead(h);
        }
        if (inBatch.has(h) || freeAt[h]! > now + MAX_WAIT_IN_FUNCTION_MS) {
          // The host is taken: the page reserves the next free slot after its schedule and goes back.
          putBacks++;
          const at = Math.max(scheduledUntil[h]!, freeAt[h]!, now + 1000);
          scheduledUntil[h] = wholeSecondsAfter(now, at) + spacing;
          const back = wholeSecondsAfter(now, at);
          visible.push(back, { host: h, putBack: true });
          // Put back (in flight) for a short wait; sent again, delayed, for a longer one (fetch's rule).
          if (!FetchQueueReturn.sendsAgain({ early: false, at: back }, now)) flight(now, back);
          else early += earlyDeliveriesOf(back - now);
          continue;
        }
        inBatch.add(h);
        taken.push(h);
      }
      freeFetch--;
      fetchRunning++;
      peak.fetch = Math.max(peak.fetch, fetchRunning);
      const lanes = new Array<number>(Math.max(1, Math.min(fetch.concurrentHosts, taken.length))).fill(now);
      for (const h of taken) {
        let w = 0;
        for (let x = 1; x < lanes.length; x++) if (lanes[x]! < lanes[w]!) w = x;
        lanes[w] = request(h, lanes[w]!);
      }
      pagesDone += taken.length;
      // A batch of early pages alone still runs (Lambda bills at least 1 ms).
      const end = Math.max(now + 1, ...lanes);
      fetchInvocations++;
      fetchBilledMs += end - now;
      flight(now, end, taken.length);
      events.push(end, { kind: "fetchEnd", articles: taken.length });
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

  const handle = (now: number, ev: SimEvent) => {
    if (ev.kind === "discover") {
      for (const [h, k] of plan.perEvent(ev.event)) {
        // reserve: after the host's schedule and its next free time, the first slot whole seconds away.
        const first = wholeSecondsAfter(now, Math.max(now, scheduledUntil[h]!, freeAt[h]!));
        for (let j = 0; j < k; j++) {
          const p = offset[h]! + added[h]! + j;
          slot[p] = first + j * spacing;
          sentAt[p] = now;
          // A slot past SQS's 15-minute delay: the page comes early every 15 minutes and is sent again
          // delayed towards it (delayed, not in flight). Its receives come in batches of their own.
          early += earlyDeliveriesOf(slot[p]! - now);
        }
        added[h]! += k;
        scheduledUntil[h] = first + k * spacing;
        offerHead(h);
      }
    } else if (ev.kind === "fetchEnd") {
      fetchRunning--;
      freeFetch++;
      lastFetchEnd = Math.max(lastFetchEnd, now);
      // Fetch sends each article to dedup as it finishes; here the batch's articles arrive at its end.
      if (ev.articles > 0) {
        dq.push({ t: now, k: ev.articles });
        dqWaiting += ev.articles;
        dqPeak = Math.max(dqPeak, dqWaiting);
      }
    } else {
      dedupRunning--;
      freeDedup++;
      lastDedupEnd = Math.max(lastDedupEnd, now);
    }
  };

  // The clock never goes back: a page visible since before now (it waited for a free batch) is taken now.
  let clock = start;
  for (;;) {
    const te = events.peekTime() ?? Number.POSITIVE_INFINITY;
    const tv = freeFetch > 0 ? (visible.peekTime() ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
    if (Math.min(te, tv) === Number.POSITIVE_INFINITY) break;
    const now = Math.max(clock, Math.min(te, tv));
    clock = now;
    eventCount++;
    if (te <= now) {
      handle(now, events.pop()!.value);
      // Everything that happens at this instant first: a poll then sees all of it.
      if (events.peekTime() === now) continue;
    }
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
  // Early deliveries come in batches of their own (no page in them is due): each a short invocation.
  const earlyInvocations = Math.ceil(early / fetch.batchSize);
  let hostsPast24h = 0;
  for (let h = 0; h < n; h++) if (lastEnd[h]! - start > DAY_MS) hostsPast24h++;

  return {
    pages: pagesDone,
    fetchedAllS: (lastFetchEnd - start) / 1000,
    dedupedAllS: (lastDedupEnd - start) / 1000,
    peakConcurrency: peak,
    inFlightPeak,
    fetchInvocations: fetchInvocations + earlyInvocations,
    fetchBilledMs: fetchBilledMs + earlyInvocations * EARLY_BATCH_MS,
    fetchMaxWaitS: fetchMaxWait / 1000,
    oldestPageS: oldestPage / 1000,
    earlyDeliveries: early,
    putBacks,
    receivesPerPage: pagesDone > 0 ? (received + early) / pagesDone : 0,
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
