/**
 * The archive's steps as the state machine invokes them (infra/archive-steps.ts), one per invocation of
 * the archive function: `days` (which days are due), then per due day `plan`, `write` per shard,
 * `commit`, `mark` per shard, `finish`; `release` when a step failed. Each event names its step and
 * carries what the plan returned (the day, the run id, the shards).
 */
import * as z from "zod/mini";
import { ArchiveError } from "./archive-error";
import { archivedOutcome, dueDays } from "./archive-run";
import type { ArchiveDeps } from "./day-archive";
import { commitDay } from "./day-commit";
import { finishDay } from "./day-finish";
import { checkDay } from "./layout";
import { manifestRows } from "./manifest";
import { markShard } from "./shard-mark";
import { planDay } from "./shard-plan";
import { writeShard } from "./shard-write";

/**
 * The state machine's timeout, and so the day's lease (held from plan to finish). A 5 M-article day is
 * ~5 shards, 3 at once: two waves of writes (~300 s each), a commit (~1 min), then the marks, bound by
 * the tables' write rate (~5.5 M write units a million articles: ~2 h for 5 M at 4,000 a second,
 * docs/scale.md), so ~2.5 h for a day written in full; the day before is usually current (a re-check).
 * 6 h holds one full day with room for retries, and a lease left by a run that timed out is free long
 * before the next day's 01:30 start.
 */
export const ARCHIVE_RUN_SECONDS = 6 * 3600;

const shard = z.object({
  n: z.number().check(z.int(), z.gte(0)),
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
});
const run = { day: z.string(), runId: z.string().check(z.regex(/^[A-Za-z0-9_-]+$/)) };

const stepSchema = z.discriminatedUnion("step", [
  z.object({ step: z.literal("days"), days: z.optional(z.array(z.string())) }),
  z.object({ step: z.literal("plan"), day: z.string() }),
  z.object({ step: z.literal("write"), ...run, shard }),
  z.object({ step: z.literal("commit"), ...run, shards: z.array(shard) }),
  z.object({
    step: z.literal("mark"),
    ...run,
    shard,
    // Where the shard's previous mark step stopped (shard-mark.ts); absent or zeros: the start.
    from: z.optional(
      z.object({
        articles: z.number().check(z.int(), z.gte(0)),
        stories: z.number().check(z.int(), z.gte(0)),
      }),
    ),
  }),
  z.object({
    step: z.literal("finish"),
    ...run,
    was: z.enum(["missing", "damaged", "changed", "unmarked", "current"]),
  }),
  z.object({ step: z.literal("release"), ...run }),
]);

export type ArchiveStepEvent = z.infer<typeof stepSchema>;
export type ArchiveStepName = ArchiveStepEvent["step"];

export interface StepContext {
  readonly now: Date;
  /** The days a `days` step checks when its event names none (yesterday and the day before). */
  readonly defaultDays: readonly string[];
  /** A new run id, for a `plan`. */
  readonly newRunId: () => string;
  /** The invocation's time left in ms (a `mark` stops short of it and says where: shard-mark.ts). */
  readonly timeLeftMs?: () => number;
}

/** Runs the step the event names; an event that is not a step is a `bad_step` error. */
export async function runArchiveStep(deps: ArchiveDeps, event: unknown, ctx: StepContext): Promise<unknown> {
  const parsed = stepSchema.safeParse(event);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ArchiveError(
      "bad_step",
      `not an archive step (${issue?.path.join(".") || "the event"}: ${issue?.message}): ${JSON.stringify(event)}`,
    );
  }
  const e = parsed.data;
  const plan = (shards: readonly z.infer<typeof shard>[] = []) => ({
    day: checkDay("day" in e ? e.day : ""),
    runId: "runId" in e ? e.runId : "",
    shards,
  });
  switch (e.step) {
    case "days":
      return dueDays(deps, e.days ?? ctx.defaultDays);
    case "plan": {
      const day = checkDay(e.day);
      try {
        return { busy: false, ...(await planDay(deps, day, ctx.newRunId(), ctx.now)) };
      } catch (err) {
        if (!(err instanceof ArchiveError && err.code === "day_busy")) throw err;
        return { busy: true, day, note: err.message };
      }
    }
    case "write":
      return writeShard(deps, plan(), e.shard);
    case "commit": {
      const m = await commitDay(deps, plan(e.shards), ctx.now);
      return { articles: manifestRows(m, "articles"), stories: manifestRows(m, "stories") };
    }
    case "mark": {
      const next = await markShard(deps, plan(), e.shard.n, {
        ...(e.from ? { from: e.from } : {}),
        ...(ctx.timeLeftMs ? { timeLeftMs: ctx.timeLeftMs } : {}),
      });
      // `next` null: the shard is marked; else the state machine invokes the step again from it.
      return { n: e.shard.n, next };
    }
    case "finish":
      return archivedOutcome({ day: e.day, was: e.was }, await finishDay(deps, plan(), ctx.now));
    case "release":
      await deps.lease.release(checkDay(e.day), e.runId);
      return { day: e.day, released: true };
  }
}
