/**
 * The plan of a day's archive run: the day's lease taken for the whole run, and the day cut into
 * contiguous `collected_at` ranges (the by-day index's sort key) of at most SHARD_ARTICLES articles
 * each, which separate invocations write and mark (docs/archive.md "Writing a day").
 */
import { ArchiveError } from "./archive-error";
import type { ArchiveDeps } from "./day-archive";
import type { ArchiveSource, CollectedRange } from "./ports";

/**
 * Articles a shard holds at most. Measured (bench --only archive, Node 24, zstd, 2026-12-06): a day of
 * 1 M in one process 154 CPU-s and 936 MB peak RSS; the same day in shards of 250 k, each step its own
 * process, 35-40 CPU-s and 542-634 MB a shard's write, 8.8 CPU-s and 324 MB the commit (docs/scale.md
 * "Archive"). 1 M keeps a shard's write near 150-300 s of the function's 900 s and under 1 GB of its
 * 1,769 MB, and cuts the design's 5 M-article day into ~5 shards (a Map of 5 items, 3 at once).
 */
const SHARD_ARTICLES = 1_000_000;

/** Shard `n` of a day: the articles whose `collected_at` falls in its range. */
export interface ShardRange extends CollectedRange {
  readonly n: number;
}

export interface DayPlan {
  readonly day: string;
  readonly runId: string;
  readonly shards: readonly ShardRange[];
}

/** A run of the index's sort key that a cut may not go through: an hour, or one `collected_at` value. */
interface Unit {
  readonly at: string;
  readonly count: number;
}

/** Cuts the units (in order) into ranges of at most `cap` articles; a unit over the cap alone is one range. */
export function cutShards(units: readonly Unit[], cap: number): ShardRange[] {
  const cuts: string[] = [];
  let held = 0;
  for (const u of units) {
    if (held > 0 && held + u.count > cap) {
      cuts.push(u.at);
      held = 0;
    }
    held += u.count;
  }
  const bounds = [null, ...cuts, null];
  return bounds.slice(1).map((to, n) => ({ n, from: bounds[n] ?? null, to }));
}

const hourStart = (day: string, h: number) => `${day}T${String(h).padStart(2, "0")}:00:00.000Z`;

/**
 * The units of an hour that holds more than the cap: one per distinct `collected_at`, from a keys-only
 * pass over the hour (the index's order), so the cut falls exactly at the cap. Only that hour's keys
 * are read, and equal values stay together (a range cannot split them).
 */
async function instants(source: ArchiveSource, day: string, range: CollectedRange): Promise<Unit[]> {
  const units: { at: string; count: number }[] = [];
  for await (const page of source.collectedAts(day, range))
    for (const at of page) {
      const last = units.at(-1);
      if (last?.at === at) last.count++;
      else units.push({ at, count: 1 });
    }
  return units;
}

/**
 * Counts the day's articles per hour of `collected_at` (24 Select COUNT queries of the index: about
 * one read of it) and cuts the day: a small day is one shard. An hour over the cap is split by a
 * keys-only pass over that hour (`instants`).
 */
export async function cutDay(source: ArchiveSource, day: string, cap: number): Promise<ShardRange[]> {
  const units: Unit[] = [];
  for (let h = 0; h < 24; h++) {
    const range = { from: hourStart(day, h), to: h < 23 ? hourStart(day, h + 1) : null };
    const count = await source.countDay(day, range);
    if (count > cap) units.push(...(await instants(source, day, range)));
    else if (count > 0) units.push({ at: range.from, count });
  }
  return cutShards(units, cap);
}

/**
 * Takes the day's lease for the whole run (until `deps.leaseMs` from `now`: the state machine's
 * timeout) and cuts the day. Another run holding it is a `day_busy` error; a failure after the lease
 * was taken releases it.
 */
export async function planDay(deps: ArchiveDeps, day: string, runId: string, now: Date): Promise<DayPlan> {
  if (!(await deps.lease.acquire(day, runId, now, new Date(now.getTime() + deps.leaseMs))))
    throw new ArchiveError(
      "day_busy",
      `another run is archiving ${day}: this run (${runId}) left the day to it; it runs again on the next schedule`,
    );
  try {
    return { day, runId, shards: await cutDay(deps.source, day, deps.shardArticles ?? SHARD_ARTICLES) };
  } catch (err) {
    await deps.lease.release(day, runId);
    throw err;
  }
}
