/**
 * Step "finish" of a day's archive: once every shard is marked, the manifest records it (`marked_at`),
 * the day's work areas go (this run's and any crashed run's: the lease keeps every other run out) and
 * the lease is released. Step "release" is the failure path's: the lease only, the work area left for
 * the next run's finish.
 */
import { ArchiveError } from "./archive-error";
import type { ArchiveDeps } from "./day-archive";
import { readManifest } from "./day-status";
import { manifestKey } from "./layout";
import { encodeManifest, type Manifest } from "./manifest";
import type { DayPlan } from "./shard-plan";
import { storeCall } from "./store-call";
import { dayWorkPrefix } from "./work-area";

export async function finishDay(
  deps: ArchiveDeps,
  plan: Pick<DayPlan, "day" | "runId">,
  now: Date,
): Promise<Manifest> {
  const { store } = deps;
  const { day, runId } = plan;
  const key = manifestKey(day);
  const committed = await storeCall("read", key, () => readManifest(store, day));
  if (committed?.run_id !== runId)
    throw new ArchiveError(
      "bad_manifest",
      `${key} is not run ${runId}'s (${committed ? `run ${committed.run_id}'s` : "none"}): this run did not commit the day; re-run the day's archive`,
    );
  const manifest = { ...committed, marked_at: now.toISOString() };
  await storeCall("write", key, () => store.put(key, [encodeManifest(manifest)]));
  const work = dayWorkPrefix(day);
  const leftovers = await storeCall("list", work, () => store.list(work));
  if (leftovers.length > 0) await storeCall("delete", work, () => store.delete(leftovers));
  await deps.lease.release(day, runId);
  return manifest;
}
