/**
 * `npm run bench -- --only scale [-- --articles N --sources N ...]`: a day of the crawl at scale through
 * the discrete-event model (scale-sim.ts), for the daily burst and the steady crawl; prints the time until
 * the day's pages are fetched, peak concurrency, the busiest keys against their partition limits
 * (scale-limits.ts), the FIFO queue, the stream, and the day's cost from the metered run's per-article
 * units plus the stack's monthly fixed costs (fixed-costs.ts). Method and figures: docs/scale.md.
 */

import { DEFAULT_BACKFILL } from "../infra/backfill-settings";
import { functionNames, topology } from "../infra/topology";
import { MAX_CONCURRENT_HOSTS } from "../lambdas/fetch";
import {
  type CostLine,
  costBreakdown,
  invocationMs,
  lambdaGbSeconds,
  type Observed,
  type Settings,
  totalUsd,
} from "./cost-model";
import { fixedMonthlyLines, stackFixedMonthly, targetCustomMetricCount } from "./fixed-costs";
import { DEFAULT_HOST_SPREAD, zipfHostSizes } from "./host-sizes";
import { HOURS_PER_MONTH } from "./provisioned-capacity";
import { type LimitRow, limitRows } from "./scale-limits";
import { type ScaleResult, simulateScale } from "./scale-sim";

/** The flags (parseArgs options), all strings: `--only scale` reads them. */
export const SCALE_FLAGS = {
  sources: { type: "string" },
  articles: { type: "string" },
  zipf: { type: "string" },
  "max-host-pages": { type: "string" },
  "delay-ms": { type: "string" },
  "latency-ms": { type: "string" },
  "fetch-concurrency": { type: "string" },
  "dedup-concurrency": { type: "string" },
  "account-concurrency": { type: "string" },
  "syndicated-copies": { type: "string" },
  "discovery-minutes": { type: "string" },
  "steady-minutes": { type: "string" },
  "custom-metrics": { type: "string" },
  seed: { type: "string" },
} as const;

export interface ScaleOptions {
  readonly sources: number;
  readonly articles: number;
  readonly zipf: number;
  readonly maxHostPages: number;
  readonly delayMs: number;
  readonly latencyMs: number;
  readonly fetchConcurrency: number;
  readonly dedupConcurrency: number;
  /** Lambda concurrent executions, the account's quota (default 1,000). */
  readonly accountConcurrency: number;
  readonly syndicatedCopies: number;
  /** How long one discovery run takes to reach every source (the burst's URLs arrive over it). */
  readonly discoveryMinutes: number;
  /** A steady crawl's cadence. */
  readonly steadyMinutes: number;
  /** The bounded custom metrics the stack publishes (default: fixed-costs.ts targetCustomMetricCount). */
  readonly customMetrics: number;
  readonly seed: number;
}

/** The other functions' most concurrent executions: a schedule's one run, a queue's maximum, the backfill's files. */
function otherConcurrency(): number {
  let n = 0;
  for (const fn of functionNames) {
    if (fn === "fetch" || fn === "dedup") continue;
    const t = topology.functions[fn].trigger;
    n += t.kind === "queue" ? t.maxConcurrency : t.kind === "schedule" ? 1 : DEFAULT_BACKFILL.max_concurrency;
  }
  return n;
}

function queueTrigger(fn: "fetch" | "dedup") {
  const t = topology.functions[fn].trigger;
  if (t.kind !== "queue") throw new Error(`${fn} is not queue-triggered`);
  return t;
}

export function scaleOptions(flags: Partial<Record<keyof typeof SCALE_FLAGS, string>>): ScaleOptions {
  const num = (name: keyof typeof SCALE_FLAGS, fallback: number): number => {
    const raw = flags[name];
    if (raw === undefined) return fallback;
    const v = Number(raw.replace(/_/g, ""));
    if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} ${raw}: a non-negative number`);
    return v;
  };
  return {
    sources: num("sources", 10_000),
    articles: num("articles", 5_000_000),
    zipf: num("zipf", DEFAULT_HOST_SPREAD.exponent),
    maxHostPages: num("max-host-pages", DEFAULT_HOST_SPREAD.maxPagesPerHost),
    delayMs: num("delay-ms", 1000),
    latencyMs: num("latency-ms", 300),
    fetchConcurrency: num("fetch-concurrency", queueTrigger("fetch").maxConcurrency),
    dedupConcurrency: num("dedup-concurrency", queueTrigger("dedup").maxConcurrency),
    accountConcurrency: num("account-concurrency", 1000),
    syndicatedCopies: num("syndicated-copies", 1000),
    discoveryMinutes: num("discovery-minutes", 20),
    steadyMinutes: num("steady-minutes", 15),
    customMetrics: num("custom-metrics", targetCustomMetricCount()),
    seed: num("seed", 7),
  };
}

export interface ScaleRun {
  readonly mode: "burst" | "steady";
  readonly sim: ScaleResult;
  readonly limits: LimitRow[];
  readonly simSeconds: number;
  readonly cost: DayCost;
}

export interface DayCost {
  /** Per million articles at the simulated batch shape, fetch compute from the simulation. */
  readonly perMillionLines: CostLine[];
  readonly fixedMonthlyLines: CostLine[];
  readonly dayUsd: number;
  readonly fixedPerDayUsd: number;
  /** The day's cost (fixed share included) per million articles. */
  readonly perMillionAtScale: number;
  /** The metered run's per-million figure at the same settings (its daily-burst default). */
  readonly perMillionMetered: number;
}

/** The day's cost: the metered per-article lines at the simulated shape, fetch's compute as simulated. */
function dayCost(obs: Observed, defaults: Settings, o: ScaleOptions, sim: ScaleResult): DayCost {
  const settings: Settings = {
    ...defaults,
    minHostDelayMs: o.delayMs,
    pageLatencyMs: o.latencyMs,
    fetchBatch: {
      // Pages come at the slots discovery gave them, one of a host in a batch; put-backs and early
      // deliveries (slots past SQS's 15-minute delay) as simulated.
      pagesPerHost: 1,
      putBacksPerPage: sim.putBacks / Math.max(1, sim.pages),
      earlyPerPage: sim.earlyDeliveries / Math.max(1, sim.pages),
      concurrentHosts: MAX_CONCURRENT_HOSTS,
    },
  };
  const fetchMb = settings.memoryMb.fetch ?? 1024;
  const simGbSecondsPerM =
    (lambdaGbSeconds(sim.fetchBilledMs / sim.fetchInvocations, fetchMb) * sim.fetchInvocations * 1e6) /
    sim.pages;
  const perMillionLines = costBreakdown(obs, settings).map((l) =>
    l.service === "Lambda" && l.item.startsWith("fetch compute")
      ? {
          ...l,
          item: `fetch compute (${fetchMb} MB, as simulated)`,
          quantity: simGbSecondsPerM,
          usd: (l.usd / l.quantity) * simGbSecondsPerM,
        }
      : l,
  );
  const fixed = fixedMonthlyLines(stackFixedMonthly(o.customMetrics));
  const fixedPerDayUsd = (totalUsd(fixed) * 24) / HOURS_PER_MONTH;
  const dayUsd = (totalUsd(perMillionLines) * sim.pages) / 1e6 + fixedPerDayUsd;
  return {
    perMillionLines,
    fixedMonthlyLines: fixed,
    dayUsd,
    fixedPerDayUsd,
    perMillionAtScale: dayUsd / (sim.pages / 1e6),
    perMillionMetered: totalUsd(costBreakdown(obs, defaults)),
  };
}

export function runScale(
  obs: Observed,
  defaults: Settings,
  o: ScaleOptions,
): { hostSizes: number[]; runs: ScaleRun[] } {
  const hostSizes = zipfHostSizes(o.sources, o.articles, {
    exponent: o.zipf,
    maxPagesPerHost: o.maxHostPages,
  });
  const fetchPer = invocationMs("fetch", obs, defaults);
  const dedupPer = invocationMs("dedup", obs, defaults);
  const dedupFn = obs.functions.dedup;
  const discoverySpreadMs = o.discoveryMinutes * 60_000;
  const runs = (["burst", "steady"] as const).map((mode) => {
    const t0 = performance.now();
    const sim = simulateScale({
      hostPages: hostSizes,
      minHostDelayMs: o.delayMs,
      pageLatencyMs: o.latencyMs,
      arrival:
        mode === "burst"
          ? { kind: "burst", spreadMs: discoverySpreadMs }
          : { kind: "steady", intervalMs: o.steadyMinutes * 60_000, spreadMs: o.steadyMinutes * 60_000 },
      fetch: {
        batchSize: queueTrigger("fetch").batchSize,
        maxConcurrency: o.fetchConcurrency,
        concurrentHosts: MAX_CONCURRENT_HOSTS,
        // The handler's own time per page (CPU at its memory, and its table and queue calls).
        cpuMsPerPage: (fetchPer.cpuMs + (obs.functions.fetch?.ioMs ?? 0)) / obs.fetchBatchSize,
      },
      dedup: {
        batchSize: queueTrigger("dedup").batchSize,
        maxConcurrency: o.dedupConcurrency,
        msPerArticle: dedupFn ? dedupPer.ms * dedupFn.invocationsPerArticle : 0,
      },
      seed: o.seed,
      syndicatedCopies: o.syndicatedCopies,
    });
    const simSeconds = (performance.now() - t0) / 1000;
    const limits = limitRows({
      sim,
      obs,
      syndicatedCopies: o.syndicatedCopies,
      // A steady crawl's runs spread their sources over the cadence: claims come evenly over the day.
      discoverySpreadS: mode === "burst" ? o.discoveryMinutes * 60 : 86_400,
      accountConcurrency: o.accountConcurrency,
      otherConcurrency: otherConcurrency(),
    });
    return { mode, sim, limits, simSeconds, cost: dayCost(obs, defaults, o, sim) };
  });
  return { hostSizes, runs };
}

/** The "done when" at these inputs: every check with whether it held. */
export function doneWhen(runs: readonly ScaleRun[]): { check: string; ok: boolean }[] {
  const out: { check: string; ok: boolean }[] = [];
  for (const r of runs) {
    out.push({
      check:
        r.mode === "burst"
          ? `burst: every page fetched within 24 h (${(r.sim.fetchedAllS / 3600).toFixed(1)} h)`
          : `steady: no URL waits past the fetch queue's age alarm (longest ${(r.sim.fetchMaxWaitS / 60).toFixed(1)} min)`,
      ok:
        r.mode === "burst"
          ? r.sim.fetchedAllS <= 86_400
          : r.sim.fetchMaxWaitS <= topology.queues.fetch.alarmAgeSeconds,
    });
    for (const l of r.limits)
      if (l.unit === "WCU/s" || l.unit === "RCU/s")
        out.push({ check: `${r.mode}: ${l.what} ≤ ${l.limit} ${l.unit}`, ok: l.demand <= l.limit });
    const ratio = r.cost.perMillionAtScale / r.cost.perMillionMetered;
    if (r.mode === "burst")
      out.push({
        check: `burst: cost per million within 10 % of the metered run's (${ratio.toFixed(3)}×)`,
        ok: Math.abs(ratio - 1) <= 0.1,
      });
  }
  return out;
}
