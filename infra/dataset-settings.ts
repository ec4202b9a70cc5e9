/**
 * The dataset catalog's options: the `dataset` object of the deploy settings file (`-c settings=FILE`).
 */
import * as z from "zod/mini";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const GIB = 2 ** 30;

export const datasetSettingsSchema = z.object({
  /**
   * The first `dt` partition projection enumerates (to NOW). A day is the UTC day an article was
   * collected, and a backfilled article's is its WARC-Date's: CC-NEWS, the backfill's source, starts in
   * August 2016. An unfiltered query lists every day from here; a `dt` filter prunes to its days.
   */
  first_day: z._default(z.string().check(z.regex(DAY, "a day YYYY-MM-DD")), "2016-08-01"),
  /**
   * Athena stops a query past this many GiB scanned (at $5 per TB, 100 GiB is $0.54). Parquet is read by
   * column: a week of 5 M articles a day without `body` is a few GiB, a week with bodies ~60 GiB (the
   * archive's target is at most 2.5 GB per million articles), while `SELECT *` over a year (~4.5 TB,
   * ~$23) is stopped. Athena's minimum is 10 MB.
   */
  bytes_scanned_cutoff_gib: z._default(z.number().check(z.gte(0.01), z.lte(1_000_000)), 100),
});
export type DatasetSettings = z.infer<typeof datasetSettingsSchema>;

export const DEFAULT_DATASET: DatasetSettings = datasetSettingsSchema.parse({});

/** The cutoff in bytes, as Athena's workgroup takes it. */
export const cutoffBytes = (s: DatasetSettings): number => Math.round(s.bytes_scanned_cutoff_gib * GIB);
