/**
 * Where the archive keeps a day (the lifecycle contract of issue 40): Parquet files per table and
 * collected day, the day's manifest (the commit point) and, for Athena, a Hive symlink list per table.
 * The same keys in the stack's bucket and under a local run's `DIR/`.
 */
import { type DatasetTableName, datasetKeys, datasetTableNames } from "../config/resource-names";
import { ArchiveError } from "./archive-error";

/** The keys themselves are declared once, in resource-names.ts (the catalog reads them too). */
export const ARCHIVE_PREFIX = datasetKeys.root;
export const archiveTables = datasetTableNames;
export type ArchiveTable = DatasetTableName;

/** A collected day, `YYYY-MM-DD` (UTC), refused when it is not a real date. */
export function checkDay(day: string): string {
  const t = Date.parse(`${day}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== day)
    throw new ArchiveError("bad_day", `not a day: "${day}" (expected YYYY-MM-DD, a UTC date)`);
  return day;
}

/** The UTC day `days` before the one `now` falls in. */
export function dayBefore(now: Date, days: number): string {
  return new Date(Date.parse(now.toISOString().slice(0, 10)) - days * 86_400_000).toISOString().slice(0, 10);
}

/** The folder (key prefix) of one table's day: the Hive partition `dt=`. */
export const partitionPrefix = (table: ArchiveTable, day: string): string => datasetKeys.day(table, day);

export const dataKey = (table: ArchiveTable, day: string, runId: string, n: number): string =>
  `${partitionPrefix(table, day)}part-${runId}-${String(n).padStart(5, "0")}.parquet`;

/** A file shard `shard` of run `runId` wrote (articles, revisions): `part-<runId>-<shard>-<nnnn>`. */
export const shardDataKey = (
  table: ArchiveTable,
  day: string,
  runId: string,
  shard: number,
  n: number,
): string => `${partitionPrefix(table, day)}part-${runId}-${shard}-${String(n).padStart(4, "0")}.parquet`;

export const manifestKey = (day: string): string => datasetKeys.manifest(day);

/** Athena's entry to a day: the partition projection's location template points here. */
export const symlinkKey = (table: ArchiveTable, day: string): string =>
  `${datasetKeys.athenaSymlinks(table)}dt=${day}/symlink.txt`;
