/**
 * Archives one collected day: its articles, the stories they belong to and the revisions collected
 * that day as Parquet (the export's columns), Athena's symlink lists, then the manifest, the commit point; then the previous run's files
 * of the day go, and only then does the hot window start on the day's items (DESIGN invariant 6:
 * archived before expired). A re-run replaces the day whole; a day's lease keeps two runs apart.
 */
import { articleRow } from "../export/dataset";
import { revisionRows } from "../export/revision-rows";
import { datasetColumns } from "../export/tables";
import { ArchiveError } from "./archive-error";
import {
  type ArchiveTable,
  archiveTables,
  checkDay,
  dataKey,
  manifestKey,
  partitionPrefix,
  symlinkKey,
} from "./layout";
import { encodeManifest, type Manifest, type ManifestFile } from "./manifest";
import type { ParquetCodec } from "./parquet-codec";
import { ParquetParts, type PartLimits } from "./parquet-parts";
import type { ArchiveSource, DayLease, ObjectStore } from "./ports";
import { type ArchivedStory, archivedStory, type StoryMark, storyMark } from "./story-state";

export interface ArchiveDeps {
  readonly source: ArchiveSource;
  readonly store: ObjectStore;
  readonly lease: DayLease;
  readonly codec: ParquetCodec;
  /** STORYTRAIL_HOT_DAYS: how long an archived article stays in the hot tables after its collection. */
  readonly hotDays: number;
  /** How long a story's summary outlives its last member's collection (crawl-settings.ts says why). */
  readonly summaryDays: number;
  /** How long a run may hold a day: the function's timeout (a holder that died frees it then). */
  readonly leaseMs: number;
  readonly limits?: PartLimits;
}

/**
 * 5,000 rows a group: a group of articles is ~15 MB of rows as objects (bench --only archive) and
 * compresses to ~2-4 MB; files close past 64 MB, so a day of 1 M articles is ~20 files, each well
 * under what one PUT takes and what a function holds.
 */
const DEFAULT_LIMITS: PartLimits = { rowGroupRows: 5_000, fileBytes: 64 * 1024 * 1024 };
/** Stories read at once (one Query each). */
const STORY_READS = 8;

export interface WrittenDay {
  readonly manifest: Manifest;
  /** What the hot window marks once the manifest is current. */
  readonly articles: { readonly ids: readonly string[]; readonly collected: readonly number[] };
  readonly stories: ReadonlyMap<string, StoryMark | null>;
}

/** Runs the store's call, turning its failure into a `store_refused` error naming the key. */
async function storeCall<T>(what: string, key: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ArchiveError) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    throw new ArchiveError("store_refused", `the archive store refused to ${what} ${key}: ${msg}`, {
      cause: err,
    });
  }
}

async function inBatches<T>(items: readonly T[], size: number, work: (t: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

/** Writes the day and commits its manifest (`marked_at` null): the caller holds the day's lease. */
async function writeDay(deps: ArchiveDeps, day: string, runId: string, now: Date): Promise<WrittenDay> {
  const { source, store } = deps;
  const files: Record<ArchiveTable, ManifestFile[]> = { articles: [], stories: [], revisions: [] };
  const parts = Object.fromEntries(
    archiveTables.map((table) => [
      table,
      new ParquetParts(datasetColumns[table], deps.codec, deps.limits ?? DEFAULT_LIMITS, async (part) => {
        const key = dataKey(table, day, runId, part.n);
        await storeCall("write", key, () => store.put(key, part.chunks));
        files[table].push({ key, rows: part.rows, bytes: part.bytes, sha256: part.sha256 });
      }),
    ]),
  ) as Record<ArchiveTable, ParquetParts>;
  const stories = new Map<string, StoryMark | null>();
  const ids: string[] = [];
  const collected: number[] = [];
  for await (const page of source.dayArticles(day)) {
    const storyIds = await source.storyIds(page.map((a) => String(a.article_id)));
    const unseen = [...new Set(storyIds.values())].filter((id) => !stories.has(id));
    // Each story is read and written once a day; afterwards only its mark is kept (not its row).
    const read = new Map<string, ArchivedStory | null>();
    await inBatches(unseen, STORY_READS, async (id) => {
      read.set(id, archivedStory(await source.storyItems(id)));
    });
    for (const id of unseen) {
      const story = read.get(id);
      if (story) await parts.stories.add(story.row as unknown as Record<string, unknown>);
      stories.set(id, story ? storyMark(story) : null);
    }
    for (const item of page) {
      const articleId = String(item.article_id);
      const story = stories.get(storyIds.get(articleId) ?? "");
      const member = story?.items.has(`member#${articleId}`) ? story : undefined;
      const row = articleRow(item, member);
      await parts.articles.add(row as unknown as Record<string, unknown>);
      // The item sits in its latest collection's day; each revision is archived in its own collection's
      // day (an earlier one was written with that day, when the item was there), so it lands once.
      for (const r of revisionRows([item], () => member?.story_id ?? null))
        if (r.collected_at.startsWith(day))
          await parts.revisions.add(r as unknown as Record<string, unknown>);
      ids.push(articleId);
      const at = Math.floor(Date.parse(row.collected_at ?? `${day}T00:00:00Z`) / 1000);
      collected.push(at);
      // A re-fetched article (a revision) moves its collected_at, not its member item's: its story
      // stays hot as long as it does (the 3-day run marked 5 revised pages' stories already expired).
      if (story && at > story.latestCollected)
        stories.set(storyIds.get(articleId) ?? "", { ...story, latestCollected: at });
    }
  }
  for (const table of archiveTables) await parts[table].end();
  if (store.athena) {
    for (const table of archiveTables) {
      const key = symlinkKey(table, day);
      const text = files[table].map((f) => `${store.uri(f.key)}\n`).join("");
      await storeCall("write", key, () => store.put(key, [new TextEncoder().encode(text)]));
    }
  }
  const manifest: Manifest = {
    manifest_version: 1,
    day,
    run_id: runId,
    written_at: now.toISOString(),
    codec: deps.codec.name,
    tables: files,
    marked_at: null,
  };
  const key = manifestKey(day);
  await storeCall("write", key, () => store.put(key, [encodeManifest(manifest)]));
  // Committed: every other file of the day's partitions (a previous run's, a crashed run's) goes.
  for (const table of archiveTables) {
    const prefix = partitionPrefix(table, day);
    const keep = new Set(files[table].map((f) => f.key));
    const stale = (await storeCall("list", prefix, () => store.list(prefix))).filter((k) => !keep.has(k));
    if (stale.length > 0) await storeCall("delete", prefix, () => store.delete(stale));
  }
  return { manifest, articles: { ids, collected }, stories };
}

/** Starts the hot window on what `written` archived, then records it in the manifest. */
async function markDay(deps: ArchiveDeps, written: WrittenDay, now: Date): Promise<Manifest> {
  const hot = deps.hotDays * 86_400;
  const { ids, collected } = written.articles;
  for (let i = 0; i < ids.length; i += 1_000) {
    const expiry = ids.slice(i, i + 1_000).map((articleId, j) => ({
      articleId,
      expiresAt: (collected[i + j] ?? 0) + hot,
    }));
    await deps.source.expireArticles(expiry);
  }
  const stories = [...written.stories].flatMap(([id, s]) => (s ? [[id, s] as const] : []));
  await inBatches(stories, STORY_READS, async ([id, s]) => {
    await deps.source.expireStoryItems(id, [...s.items], s.latestCollected + hot);
    await deps.source.expireStoryItems(id, ["summary"], s.latestCollected + deps.summaryDays * 86_400);
  });
  const manifest = { ...written.manifest, marked_at: now.toISOString() };
  const key = manifestKey(manifest.day);
  await storeCall("write", key, () => deps.store.put(key, [encodeManifest(manifest)]));
  return manifest;
}

/** Holds the day's lease around `work`; another run holding it is a `day_busy` error. */
async function withDayLease<T>(
  deps: ArchiveDeps,
  day: string,
  runId: string,
  now: Date,
  work: () => Promise<T>,
): Promise<T> {
  if (!(await deps.lease.acquire(day, runId, now, new Date(now.getTime() + deps.leaseMs))))
    throw new ArchiveError(
      "day_busy",
      `another run is archiving ${day}: this run (${runId}) left the day to it; it runs again on the next schedule`,
    );
  try {
    return await work();
  } finally {
    await deps.lease.release(day, runId);
  }
}

/**
 * Writes the day, commits it and marks its items. `afterCommit` runs between the commit and the
 * marking (a stop there leaves the manifest unmarked, and the next run redoes both).
 */
export async function archiveDay(
  deps: ArchiveDeps,
  dayText: string,
  opts: { readonly runId: string; readonly now: Date; readonly afterCommit?: () => Promise<void> },
): Promise<Manifest> {
  const day = checkDay(dayText);
  return withDayLease(deps, day, opts.runId, opts.now, async () => {
    const written = await writeDay(deps, day, opts.runId, opts.now);
    await opts.afterCommit?.();
    return markDay(deps, written, opts.now);
  });
}
