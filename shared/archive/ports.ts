/** What the archive needs from the hot tables, from the object store and from a lease: its ports. */

/**
 * A range of the by-day index's sort key, `collected_at`: from `from` (inclusive) to `to` (exclusive);
 * null is open (the day's first shard starts at its first article, the last ends at its last).
 */
export interface CollectedRange {
  readonly from: string | null;
  readonly to: string | null;
}

/** The hot tables (DynamoDB in AWS and in a local run's emulators). */
export interface ArchiveSource {
  /** The day's article items (within `range` when given), as the Articles table holds them, a page at
   * a time in `collected_at` order (the by-day index). */
  dayArticles(day: string, range?: CollectedRange): AsyncIterable<readonly Record<string, unknown>[]>;
  /** How many articles the table holds for the day (the next day's re-check compares it); with a
   * range, about how many fall in it (an article at `to` may be counted in both ranges: a plan's
   * estimate, never a check). */
  countDay(day: string, range?: CollectedRange): Promise<number>;
  /** The `collected_at` of each article in `range`, in order, a page at a time (keys only). */
  collectedAts(day: string, range: CollectedRange): AsyncIterable<readonly string[]>;
  /** The live story each article's claim chose, followed through `merged_into`; absent when none. */
  storyIds(articleIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** A story's summary, member and outlet items; empty when it has none. */
  storyItems(storyId: string): Promise<readonly Record<string, unknown>[]>;
  /** Sets `expires_at` (epoch seconds) on Articles items. */
  expireArticles(
    expiry: readonly { readonly articleId: string; readonly expiresAt: number }[],
  ): Promise<void>;
  /** Sets `expires_at` on a story's Clusters items (by `item` key), never moving one earlier. */
  expireStoryItems(storyId: string, items: readonly string[], expiresAt: number): Promise<void>;
}

/** The archive's objects: the stack's bucket, or a local run's folder. Keys are `dataset/…`. */
export interface ObjectStore {
  put(key: string, chunks: readonly Uint8Array[]): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Every key under `prefix`. */
  list(prefix: string): Promise<string[]>;
  delete(keys: readonly string[]): Promise<void>;
  /** The address a query engine reads the key at (`s3://bucket/key`, or a file path). */
  uri(key: string): string;
  /** Whether readers need Athena's symlink lists (S3: yes; a local folder: no). */
  readonly athena: boolean;
}

/** One run of a day at a time: held until released, or until `until` when its holder died. */
export interface DayLease {
  /** True when `runId` now holds the day's lease. */
  acquire(day: string, runId: string, now: Date, until: Date): Promise<boolean>;
  release(day: string, runId: string): Promise<void>;
}
