/**
 * Step "mark" of a day's archive: the hot window on shard k's articles and the stories it met, from its
 * ledgers, once the day's manifest is current (DESIGN invariant 6). Expiries never move earlier, so a
 * story two shards met ends at the later of their marks, and a retried mark changes nothing.
 */
import type { ArchiveDeps } from "./day-archive";
import { inBatches } from "./in-batches";
import type { DayPlan } from "./shard-plan";
import { STORY_READS, type StoryMarkLine } from "./shard-write";
import { ledgerKey, readLedger } from "./work-area";

/** Articles a call to expireArticles takes. */
const ARTICLE_BATCH = 1_000;
/** Stories held before they are marked, STORY_READS at once. */
const STORY_BATCH = 1_000;

export async function markShard(deps: ArchiveDeps, plan: DayPlan, shard: number): Promise<void> {
  const { source, store } = deps;
  const hot = deps.hotDays * 86_400;
  let articles: { articleId: string; expiresAt: number }[] = [];
  for await (const [articleId, at] of readLedger<[string, number]>(
    store,
    ledgerKey(plan.day, plan.runId, shard, "article-marks"),
  )) {
    articles.push({ articleId, expiresAt: at + hot });
    if (articles.length === ARTICLE_BATCH) {
      await source.expireArticles(articles);
      articles = [];
    }
  }
  if (articles.length > 0) await source.expireArticles(articles);
  const markStories = (batch: readonly StoryMarkLine[]) =>
    inBatches(batch, STORY_READS, async (s) => {
      await source.expireStoryItems(s.id, s.items, s.latest + hot);
      await source.expireStoryItems(s.id, ["summary"], s.latest + deps.summaryDays * 86_400);
    });
  let stories: StoryMarkLine[] = [];
  for await (const s of readLedger<StoryMarkLine>(
    store,
    ledgerKey(plan.day, plan.runId, shard, "story-marks"),
  )) {
    stories.push(s);
    if (stories.length === STORY_BATCH) {
      await markStories(stories);
      stories = [];
    }
  }
  await markStories(stories);
}
