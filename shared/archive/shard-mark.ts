/**
 * Step "mark" of a day's archive: the hot window on shard k's articles and the stories it met, from its
 * ledgers, once the day's manifest is current (DESIGN invariant 6). Expiries never move earlier, so a
 * story two shards met ends at the later of their marks, and a retried mark changes nothing.
 *
 * A mark is bounded by the table's write rate, not by the function: a 1 M-article shard is ~1 M article
 * UpdateItems and ~0.7 M Clusters ones (~5 M write units), 7-15 min at a few thousand units a second,
 * more when DynamoDB throttles. So a step stops when its invocation's time runs short and says where
 * it got to; the state machine invokes it again from there (infra/archive-steps.ts) until it is done.
 */
import type { ArchiveDeps } from "./day-archive";
import { inBatches } from "./in-batches";
import type { DayPlan } from "./shard-plan";
import { STORY_READS, type StoryMarkLine } from "./shard-write";
import { ledgerKey, readLedger } from "./work-area";

/** Articles a call to expireArticles takes, and stories held before they are marked (STORY_READS at once). */
const BATCH = 1_000;
/** A step stops with this much of its invocation left: a batch of 1,000 takes ~1 s at 16 updates in
 * flight, and SDK retries of a throttled batch a few seconds more. */
const RESERVE_MS = 60_000;

/** Where a mark got to: the lines of each ledger done (the next step starts there). */
export interface MarkProgress {
  readonly articles: number;
  readonly stories: number;
}

export const MARK_START: MarkProgress = { articles: 0, stories: 0 };

export interface MarkOptions {
  /** Where an earlier step of this shard stopped (default: the start). */
  readonly from?: MarkProgress;
  /** The invocation's time left, in ms (Lambda's context); without it the step runs to the end. */
  readonly timeLeftMs?: () => number;
  /** Lines marked between two looks at the time (default 1,000; a test's day is smaller). */
  readonly batch?: number;
}

/** Marks the shard from `from` on; null when it is done, else where it stopped for lack of time. */
export async function markShard(
  deps: ArchiveDeps,
  plan: DayPlan,
  shard: number,
  opts: MarkOptions = {},
): Promise<MarkProgress | null> {
  const { source, store } = deps;
  const hot = deps.hotDays * 86_400;
  const from = opts.from ?? MARK_START;
  const batch = opts.batch ?? BATCH;
  const short = () => (opts.timeLeftMs ? opts.timeLeftMs() < RESERVE_MS : false);

  let line = 0;
  let articles: { articleId: string; expiresAt: number }[] = [];
  for await (const [articleId, at] of readLedger<[string, number]>(
    store,
    ledgerKey(plan.day, plan.runId, shard, "article-marks"),
  )) {
    if (line++ < from.articles) continue;
    articles.push({ articleId, expiresAt: at + hot });
    if (articles.length === batch) {
      await source.expireArticles(articles);
      articles = [];
      if (short()) return { articles: line, stories: from.stories };
    }
  }
  if (articles.length > 0) await source.expireArticles(articles);
  const articleLines = line;

  const markStories = (batch: readonly StoryMarkLine[]) =>
    inBatches(batch, STORY_READS, async (s) => {
      await source.expireStoryItems(s.id, s.items, s.latest + hot);
      await source.expireStoryItems(s.id, ["summary"], s.latest + deps.summaryDays * 86_400);
    });
  line = 0;
  let stories: StoryMarkLine[] = [];
  for await (const s of readLedger<StoryMarkLine>(
    store,
    ledgerKey(plan.day, plan.runId, shard, "story-marks"),
  )) {
    if (line++ < from.stories) continue;
    stories.push(s);
    if (stories.length === batch) {
      await markStories(stories);
      stories = [];
      if (short()) return { articles: articleLines, stories: line };
    }
  }
  await markStories(stories);
  return null;
}
