/**
 * One discovery run over some sources: find URLs, keep only new (or updated) ones, enqueue them.
 * Sources run a few at a time, each within a time budget cut from the invocation's remaining time, so
 * one slow publisher (a long Crawl-delay, a drip-feeding server) cannot hold back the others: a source
 * over its budget keeps what it found so far, is reported with reason `timeout`, and keeps its
 * last-success mark, so the next run reads it again from there.
 */
import { type DiscoveryLimits, type DiscoveryProblem, discoverSource } from "../discover/discover-source";
import type { RobotsCache } from "../discover/robots";
import { type Source, sourceFetchSettings } from "../discover/sources";
import { DEFAULT_MIN_HOST_DELAY_MS } from "../fetch/crawl-delay";
import { HostPacer } from "../fetch/host-pacer";
import type { HttpClient } from "../fetch/http";
import type { FailureReason, FetchMessage } from "../records";
import { withSlots } from "./page-slots";
import type { FetchQueue, Frontier, HostSchedule, Pacer, SourceState } from "./ports";

export interface DiscoverRunDeps {
  readonly http: HttpClient;
  readonly robots: RobotsCache;
  readonly frontier: Frontier;
  readonly sourceState: SourceState;
  readonly fetchQueue: FetchQueue;
  readonly now: () => Date;
  readonly limits?: Partial<DiscoveryLimits>;
  readonly log?: (msg: string, data: Record<string, unknown>) => void;
  /** Time left in this invocation (Lambda's `context.getRemainingTimeInMillis`); absent: unbounded. */
  readonly remainingMs?: () => number;
  /** Sources discovered at once (default SOURCE_CONCURRENCY). */
  readonly sourceConcurrency?: number;
  /** STORYTRAIL_MIN_HOST_DELAY_MS, for the default pacer (default DEFAULT_MIN_HOST_DELAY_MS). */
  readonly minHostDelayMs?: number;
  /** The one pacer of every request (default: a HostPacer of the run's own); in Lambda, the Hosts table
   * fetch paces by too, so discovery's and fetch's requests to one host keep one pace. A source's
   * min_delay_ms goes with each request, and its budget ends its waits, as fetch's do. */
  readonly pacer?: Pacer;
  /** The hosts' schedule (the Hosts table): each enqueued page gets its slot and is delayed to it
   * (page-slots.ts). Absent (one process, no shared table): pages are sent unslotted. */
  readonly schedule?: HostSchedule;
  /** The re-check schedule (STORYTRAIL_RECHECK_HOURS): URLs dated by their publication alone are listed
   * again over its span, for the claim to re-send those due (recheck-schedule.ts). Absent: none. */
  readonly recheckHours?: readonly number[];
}

export interface SourceRunSummary {
  readonly source_id: string;
  readonly discovered: number;
  readonly new: number;
  readonly updated: number;
  readonly seen: number;
  /** New or updated URLs robots.txt disallows: recorded as failed here, never enqueued. */
  readonly disallowed: number;
  readonly problems: number;
  readonly problem_reasons: Partial<Record<FailureReason, number>>;
  /** False when the source ran out of its time budget: what it found is enqueued, the rest waits for the next run. */
  readonly completed: boolean;
}

export interface DiscoverRunSummary {
  readonly run_id: string;
  readonly sources: SourceRunSummary[];
  readonly enqueued: number;
}

const ENQUEUE_CHUNK = 100;
const CLAIM_CONCURRENCY = 16;

/** Sources discovered at once. Each mostly waits on publishers (pacing, network), so a few at a time
 * cost little memory (one sitemap document per source) and keep a slow one from holding the rest. */
export const SOURCE_CONCURRENCY = 4;

/** Share of the invocation kept back for claiming and enqueueing what the last sources found (a 50,000-URL
 * sitemap takes ~15 s to claim on DynamoDB at 16 writes at a time), up to a minute. */
const FINISH_RESERVE_SHARE = 0.2;
const FINISH_RESERVE_MAX_MS = 60_000;
/** How often running sources are checked against their deadline and the invocation's. */
const WATCH_INTERVAL_MS = 200;

/**
 * The time plan of one run: each source's budget is a fair share of the invocation's time (its time
 * less the finishing reserve, times the concurrency, over the number of sources), never past the
 * point where the reserve begins.
 */
function budgetPlan(sources: number, concurrency: number, remainingMs?: () => number) {
  if (!remainingMs) return { budgetMs: Number.POSITIVE_INFINITY, reserveMs: 0 };
  const total = remainingMs();
  const reserveMs = Math.min(FINISH_RESERVE_MAX_MS, total * FINISH_RESERVE_SHARE);
  const usable = Math.max(0, total - reserveMs);
  return { budgetMs: (usable * concurrency) / Math.max(concurrency, sources), reserveMs };
}

/** A lastmod we can compare as a string: ISO-8601 in UTC, or null. */
function normaliseLastmod(raw: string | null): string | null {
  if (!raw) return null;
  const t = Date.parse(raw);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

export async function runDiscovery(
  sources: readonly Source[],
  runId: string,
  deps: DiscoverRunDeps,
): Promise<DiscoverRunSummary> {
  const concurrency = Math.max(1, deps.sourceConcurrency ?? SOURCE_CONCURRENCY);
  const pacer = deps.pacer ?? new HostPacer({ minDelayMs: deps.minHostDelayMs ?? DEFAULT_MIN_HOST_DELAY_MS });
  const { budgetMs, reserveMs } = budgetPlan(sources.length, concurrency, deps.remainingMs);
  const running = new Map<AbortController, number>(); // source's controller → its deadline (Date.now())
  const outOfTime = () => deps.remainingMs !== undefined && deps.remainingMs() <= reserveMs;
  const watch = setInterval(() => {
    const now = Date.now();
    for (const [controller, deadline] of running) if (now >= deadline || outOfTime()) controller.abort();
  }, WATCH_INTERVAL_MS);
  watch.unref?.();
  const summaries: SourceRunSummary[] = new Array(sources.length);
  let enqueued = 0;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < sources.length; i = next++) {
      const source = sources[i]!;
      const controller = new AbortController();
      if (outOfTime()) controller.abort();
      running.set(controller, Date.now() + budgetMs);
      try {
        const summary = await runSource(source, runId, { ...deps, pacer }, controller.signal, budgetMs);
        enqueued += summary.enqueued;
        summaries[i] = summary.summary;
      } finally {
        running.delete(controller);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, sources.length) }, worker));
  } finally {
    clearInterval(watch);
  }
  return { run_id: runId, sources: summaries, enqueued };
}

async function runSource(
  source: Source,
  runId: string,
  deps: DiscoverRunDeps & { pacer: Pacer },
  signal: AbortSignal,
  budgetMs: number,
): Promise<{ summary: SourceRunSummary; enqueued: number }> {
  let enqueued = 0;
  const startedAt = deps.now();
  const since = await deps.sourceState.lastSuccess(source.id);
  const found = signal.aborted
    ? { urls: [], problems: [] as DiscoveryProblem[] }
    : await discoverSource(source, {
        http: deps.http,
        robots: deps.robots,
        since,
        now: startedAt,
        limits: deps.limits,
        pacer: deps.pacer,
        signal,
        ...(deps.recheckHours ? { recheckHours: deps.recheckHours } : {}),
      });
  const { urls } = found;
  const completed = !signal.aborted;
  const problems = completed
    ? found.problems
    : [
        ...found.problems,
        {
          url: source.homepage,
          reason: "timeout" as const,
          detail: `discovery ran out of its time budget (${Math.round(budgetMs / 1000)} s) with ${urls.length} URL(s) found; the rest is read next run`,
        },
      ];
  const counts = { new: 0, updated: 0, seen: 0, disallowed: 0 };
  const settings = sourceFetchSettings(source);
  let batch: FetchMessage[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const schedule = deps.schedule;
    await deps.fetchQueue.send(
      schedule
        ? await withSlots(batch, {
            schedule,
            crawlDelaySeconds: async (url) => (await deps.robots.rulesFor(url)).crawlDelaySeconds,
            ...(deps.log ? { log: deps.log } : {}),
          })
        : batch,
    );
    enqueued += batch.length;
    batch = [];
  };
  // Claims are independent conditional writes: a few at a time keeps a 50,000-URL sitemap well
  // inside the function's timeout without flooding the table.
  for (let i = 0; i < urls.length; i += CLAIM_CONCURRENCY) {
    const slice = urls.slice(i, i + CLAIM_CONCURRENCY);
    const claims = await Promise.all(
      slice.map(async (d) => {
        const lastmod = normaliseLastmod(d.lastmod);
        const claim = await deps.frontier.claim({
          url: d.url,
          source_id: source.id,
          run_id: runId,
          lastmod,
          now: deps.now().toISOString(),
        });
        // A URL robots.txt plainly disallows is recorded here rather than queued for a fetch λ to
        // refuse. Unavailable robots.txt (disallow all for now) is left to fetch, which retries.
        let disallowed = false;
        if (claim !== "seen") {
          const rules = await deps.robots.rulesFor(d.url);
          disallowed = rules.status === "ok" && !rules.isAllowed(d.url);
          if (disallowed) {
            await deps.frontier.markFailed(d.url, {
              reason: "robots_disallowed",
              detail: "robots.txt disallows it (checked at discovery)",
              http_status: null,
              now: deps.now().toISOString(),
            });
          }
        }
        return { d, lastmod, claim, disallowed };
      }),
    );
    for (const { d, lastmod, claim, disallowed } of claims) {
      counts[claim]++;
      if (claim === "seen") continue;
      if (disallowed) {
        counts.disallowed++;
        continue;
      }
      batch.push({
        url: d.url,
        source_id: source.id,
        publication: source.publication,
        discovered_from: d.discovered_from,
        run_id: runId,
        lastmod,
        hint_title: d.title,
        hint_published_at: d.published_at,
        language_hint: d.language ?? source.language ?? null,
        ...settings,
      });
    }
    if (batch.length >= ENQUEUE_CHUNK) await flush();
  }
  await flush();
  const problem_reasons: Partial<Record<FailureReason, number>> = {};
  for (const p of problems) {
    problem_reasons[p.reason] = (problem_reasons[p.reason] ?? 0) + 1;
    deps.log?.("discovery problem", {
      source_id: source.id,
      url: p.url,
      reason: p.reason,
      detail: p.detail,
    });
  }
  const summary: SourceRunSummary = {
    source_id: source.id,
    discovered: urls.length,
    ...counts,
    problems: problems.length,
    problem_reasons,
    completed,
  };
  // A source whose every sitemap and feed failed has not had a successful run, nor has one cut short
  // by its budget: keep the old mark, so that the next run reads everything since then.
  if (completed && (urls.length > 0 || problems.length === 0)) {
    await deps.sourceState.recordSuccess(source.id, startedAt, { ...counts, problems: problems.length });
  }
  return { summary, enqueued };
}
