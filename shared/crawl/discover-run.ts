/** One discovery run over some sources: find URLs, keep only new (or updated) ones, enqueue them. */
import { type DiscoveryLimits, discoverSource } from "../discover/discover-source";
import type { RobotsCache } from "../discover/robots";
import type { Source } from "../discover/sources";
import type { HttpClient } from "../fetch/http";
import type { FailureReason, FetchMessage } from "../records";
import type { FetchQueue, Frontier, SourceState } from "./ports";

export interface DiscoverRunDeps {
  readonly http: HttpClient;
  readonly robots: RobotsCache;
  readonly frontier: Frontier;
  readonly sourceState: SourceState;
  readonly fetchQueue: FetchQueue;
  readonly now: () => Date;
  readonly limits?: Partial<DiscoveryLimits>;
  readonly log?: (msg: string, data: Record<string, unknown>) => void;
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
}

export interface DiscoverRunSummary {
  readonly run_id: string;
  readonly sources: SourceRunSummary[];
  readonly enqueued: number;
}

const ENQUEUE_CHUNK = 100;
const CLAIM_CONCURRENCY = 16;

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
  const summaries: SourceRunSummary[] = [];
  let enqueued = 0;
  for (const source of sources) {
    const startedAt = deps.now();
    const since = await deps.sourceState.lastSuccess(source.id);
    const { urls, problems } = await discoverSource(source, {
      http: deps.http,
      robots: deps.robots,
      since,
      now: startedAt,
      limits: deps.limits,
    });
    const counts = { new: 0, updated: 0, seen: 0, disallowed: 0 };
    let batch: FetchMessage[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await deps.fetchQueue.send(batch);
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
    };
    // A source whose every sitemap and feed failed has not had a successful run: keep its old mark.
    if (urls.length > 0 || problems.length === 0) {
      await deps.sourceState.recordSuccess(source.id, startedAt, { ...counts, problems: problems.length });
    }
    summaries.push(summary);
  }
  return { run_id: runId, sources: summaries, enqueued };
}
