/**
 * Step "write" of a day's archive: shard k's articles (its `collected_at` range) as Parquet parts of
 * the articles and revisions tables (`part-<runId>-<k>-<nnnn>`), and its ledgers in the run's work
 * area: every live story it meets (its row, for the commit, which writes each story once), what its
 * marking needs (each article's id and collection second, each story's items and latest collection),
 * then its file list. Nothing is made current here: only the commit's manifest does that.
 */
import { articleRow } from "../export/dataset";
import { revisionRows } from "../export/revision-rows";
import { datasetColumns } from "../export/tables";
import type { ArchiveDeps } from "./day-archive";
import { inBatches } from "./in-batches";
import { shardDataKey } from "./layout";
import type { ManifestFile } from "./manifest";
import { ParquetParts, type PartLimits } from "./parquet-parts";
import type { DayPlan, ShardRange } from "./shard-plan";
import { storeCall } from "./store-call";
import { type ArchivedStory, archivedStory, type StoryMark, storyMark } from "./story-state";
import { GzipLines, ledgerKey, shardFilesKey } from "./work-area";

/**
 * 5,000 rows a group: a group of articles is ~15 MB of rows as objects (bench --only archive) and
 * compresses to ~2-4 MB; files close past 64 MB, so a shard of 1 M articles is ~15 files, each well
 * under what one PUT takes and what a function holds.
 */
export const DEFAULT_LIMITS: PartLimits = { rowGroupRows: 5_000, fileBytes: 64 * 1024 * 1024 };
/** Stories read (or marked) at once: one Query (or a few UpdateItems) each. */
export const STORY_READS = 8;

/** The Parquet files a shard wrote, per table (the commit lists them in the manifest). */
export interface ShardFiles {
  readonly articles: readonly ManifestFile[];
  readonly revisions: readonly ManifestFile[];
}

/** A story's mark as its ledger line holds it. */
export interface StoryMarkLine {
  readonly id: string;
  readonly items: readonly string[];
  readonly latest: number;
}

export interface ShardWritten {
  readonly n: number;
  readonly articles: number;
  readonly stories: number;
  readonly files: number;
}

export async function writeShard(deps: ArchiveDeps, plan: DayPlan, shard: ShardRange): Promise<ShardWritten> {
  const { source, store } = deps;
  const { day, runId } = plan;
  const files: { articles: ManifestFile[]; revisions: ManifestFile[] } = { articles: [], revisions: [] };
  const parts = (table: keyof ShardFiles) =>
    new ParquetParts(datasetColumns[table], deps.codec, deps.limits ?? DEFAULT_LIMITS, async (part) => {
      const key = shardDataKey(table, day, runId, shard.n, part.n);
      await storeCall("write", key, () => store.put(key, part.chunks));
      files[table].push({ key, rows: part.rows, bytes: part.bytes, sha256: part.sha256 });
    });
  const articles = parts("articles");
  const revisions = parts("revisions");
  const storyRows = new GzipLines();
  const articleMarks = new GzipLines();
  // Each story is read once a shard; afterwards only its mark is kept (its row went to the ledger).
  const stories = new Map<string, StoryMark | null>();
  for await (const page of source.dayArticles(day, shard)) {
    const storyIds = await source.storyIds(page.map((a) => String(a.article_id)));
    const unseen = [...new Set(storyIds.values())].filter((id) => !stories.has(id));
    const read = new Map<string, ArchivedStory | null>();
    await inBatches(unseen, STORY_READS, async (id) => {
      read.set(id, archivedStory(await source.storyItems(id)));
    });
    for (const id of unseen) {
      const story = read.get(id);
      if (story) storyRows.add(story.row);
      stories.set(id, story ? storyMark(story) : null);
    }
    for (const item of page) {
      const articleId = String(item.article_id);
      const storyId = storyIds.get(articleId) ?? "";
      const story = stories.get(storyId);
      const member = story?.items.has(`member#${articleId}`) ? story : undefined;
      const row = articleRow(item, member);
      await articles.add(row as unknown as Record<string, unknown>);
      // The item sits in its latest collection's day; each revision is archived in its own collection's
      // day (an earlier one was written with that day, when the item was there), so it lands once.
      for (const r of revisionRows([item], () => member?.story_id ?? null))
        if (r.collected_at.startsWith(day)) await revisions.add(r as unknown as Record<string, unknown>);
      const at = Math.floor(Date.parse(row.collected_at ?? `${day}T00:00:00Z`) / 1000);
      articleMarks.add([articleId, at]);
      // A re-fetched article (a revision) moves its collected_at, not its member item's: its story
      // stays hot as long as it does (the 3-day run marked 5 revised pages' stories already expired).
      if (story && at > story.latestCollected) stories.set(storyId, { ...story, latestCollected: at });
    }
  }
  await articles.end();
  await revisions.end();
  const storyMarks = new GzipLines();
  for (const [id, s] of stories)
    if (s) storyMarks.add({ id, items: [...s.items], latest: s.latestCollected } satisfies StoryMarkLine);
  await storyRows.put(store, ledgerKey(day, runId, shard.n, "stories"));
  await articleMarks.put(store, ledgerKey(day, runId, shard.n, "article-marks"));
  await storyMarks.put(store, ledgerKey(day, runId, shard.n, "story-marks"));
  const filesKey = shardFilesKey(day, runId, shard.n);
  const list = new TextEncoder().encode(JSON.stringify(files satisfies ShardFiles));
  await storeCall("write", filesKey, () => store.put(filesKey, [list]));
  return {
    n: shard.n,
    articles: articleMarks.lines,
    stories: storyMarks.lines,
    files: files.articles.length + files.revisions.length,
  };
}
