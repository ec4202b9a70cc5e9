/**
 * The deployed backfill's options: the `backfill` object of the deploy settings file (`-c settings=FILE`).
 * On by default (a state machine and a function cost nothing while no backfill runs); the function may
 * read only `bucket`/`prefix*`.
 */
import * as z from "zod/mini";
import { CC_NEWS_PREFIX, COMMONCRAWL_BUCKET } from "../shared/backfill/cc-news";

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export const backfillSettingsSchema = z.object({
  enabled: z._default(z.boolean(), true),
  /** The bucket holding the WARC files (and, for `storytrail backfill --month`, CC-NEWS paths lists). */
  bucket: z._default(z.string().check(z.regex(BUCKET_NAME, "an S3 bucket name")), COMMONCRAWL_BUCKET),
  /** Only keys under this prefix can be read ("" = the whole bucket). */
  prefix: z._default(z.string(), CC_NEWS_PREFIX),
  /**
   * WARC files imported at once. Each sends ~20 articles/s to the dedup queue (one core extracts ~20-50
   * pages/s, bench/backfill-import.ts), which 10 dedup λs drain; 5 keeps the queue from piling up.
   */
  max_concurrency: z._default(z.number().check(z.int(), z.gte(1), z.lte(10_000)), 5),
  /** Share of files that may fail (after retries) before the whole run is marked failed. */
  tolerated_failure_percentage: z._default(z.number().check(z.gte(0), z.lte(100)), 5),
});
export type BackfillSettings = z.infer<typeof backfillSettingsSchema>;

export const DEFAULT_BACKFILL: BackfillSettings = backfillSettingsSchema.parse({});
