/**
 * Archives one collected day: its articles, the stories they belong to and the revisions collected
 * that day as Parquet (the export's columns), Athena's symlink lists, then the manifest, the commit
 * point; then the previous run's files of the day go, and only then does the hot window start on the
 * day's items (DESIGN invariant 6: archived before expired). A re-run replaces the day whole; a day's
 * lease keeps two runs apart.
 *
 * The day is written in steps (docs/archive.md "Writing a day"): plan (the lease, the day cut into
 * shards of `collected_at`) → write each shard → commit → mark each shard → finish. On AWS a state
 * machine runs each step in its own invocation (infra/archive-steps.ts); here they run in sequence in
 * one process (a local run, the tests, a direct invocation of the function).
 */

import { commitDay } from "./day-commit";
import { finishDay } from "./day-finish";
import { checkDay } from "./layout";
import type { Manifest } from "./manifest";
import type { ParquetCodec } from "./parquet-codec";
import type { PartLimits } from "./parquet-parts";
import type { ArchiveSource, DayLease, ObjectStore } from "./ports";
import { markShard } from "./shard-mark";
import { type DayPlan, planDay } from "./shard-plan";
import { writeShard } from "./shard-write";

export interface ArchiveDeps {
  readonly source: ArchiveSource;
  readonly store: ObjectStore;
  readonly lease: DayLease;
  readonly codec: ParquetCodec;
  /** STORYTRAIL_HOT_DAYS: how long an archived article stays in the hot tables after its collection. */
  readonly hotDays: number;
  /** How long a story's summary outlives its last member's collection (crawl-settings.ts says why). */
  readonly summaryDays: number;
  /** How long a run may hold a day: the whole run's limit (the state machine's timeout; in one
   * process, the function's), after which a holder that died frees it. */
  readonly leaseMs: number;
  readonly limits?: PartLimits;
  /** Articles a shard holds at most (default SHARD_ARTICLES, shard-plan.ts); tests force a small one. */
  readonly shardArticles?: number;
}

/**
 * Writes the day in its shards, commits it and marks its items, in this process. `afterWrites` runs
 * once the shards wrote and before the commit, `afterCommit` between the commit and the marking (a
 * stop at either leaves the day as it was, or committed and unmarked: the next run redoes it).
 */
export async function archiveDay(
  deps: ArchiveDeps,
  dayText: string,
  opts: {
    readonly runId: string;
    readonly now: Date;
    readonly afterWrites?: () => Promise<void>;
    readonly afterCommit?: () => Promise<void>;
  },
): Promise<Manifest> {
  const plan: DayPlan = await planDay(deps, checkDay(dayText), opts.runId, opts.now);
  try {
    for (const shard of plan.shards) await writeShard(deps, plan, shard);
    await opts.afterWrites?.();
    await commitDay(deps, plan, opts.now);
    await opts.afterCommit?.();
    // In one process a mark runs to its end (no deadline): one pass a shard.
    for (const shard of plan.shards) await markShard(deps, plan, shard.n);
    return await finishDay(deps, plan, opts.now);
  } catch (err) {
    // The state machine's Catch does the same: the lease goes, the work area stays for the next run.
    await deps.lease.release(plan.day, plan.runId);
    throw err;
  }
}
