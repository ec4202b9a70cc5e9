/**
 * A local run's archive: at the end of `crawl` and `demo`, every collected day before the run clock's
 * day that is not archived, or whose count changed, is written to `DIR/dataset/` (the stack's layout,
 * without Athena's symlink lists), then its items get their hot window. The same domain code and the
 * same steps as the deployed state machine (plan → write each shard → commit → mark each shard →
 * finish: shared/archive/day-archive.ts), in sequence in this process, with the run's folder as its
 * object store. A local day is one shard unless `shardArticles` says otherwise (the tests).
 */
import { paginateScan } from "@aws-sdk/lib-dynamodb";
import { archiveDays, type DayOutcome } from "../../shared/archive/archive-run";
import { ARCHIVE_RUN_SECONDS } from "../../shared/archive/archive-steps";
import { archiveWindows } from "../../shared/archive/archive-windows";
import { archiveCodec } from "../../shared/archive/parquet-codec";
import { DynamoArchiveSource } from "../../shared/aws/archive-tables";
import { DayLeaseItem } from "../../shared/aws/day-lease-item";
import { clockFrom } from "../../shared/config/clock";
import { crawlSettings } from "../../shared/config/crawl-settings";
import { ARTICLES_BY_DAY_INDEX } from "../../shared/config/resource-names";
import { FolderObjectStore } from "./folder-object-store";
import type { LocalRuntime } from "./runtime";

/** The days the Articles table holds, from its by-day index (keys only: a local table is small). */
async function collectedDays(runtime: LocalRuntime): Promise<string[]> {
  const days = new Set<string>();
  const pages = paginateScan(
    { client: runtime.clients.doc },
    {
      TableName: runtime.resources.tables.articles,
      IndexName: ARTICLES_BY_DAY_INDEX,
      ProjectionExpression: "collected_day",
    },
  );
  for await (const page of pages) for (const i of page.Items ?? []) days.add(String(i.collected_day));
  return [...days].sort();
}

/** `now`: the run's clock (default the functions' clock: STORYTRAIL_NOW, else the wall clock). */
export async function archiveLocalRun(
  runtime: LocalRuntime,
  dataDir: string,
  runId: string,
  now?: Date,
  opts: { readonly shardArticles?: number } = {},
): Promise<DayOutcome[]> {
  const settings = crawlSettings(runtime.env("archive"));
  now ??= clockFrom(settings.STORYTRAIL_NOW)();
  const today = now.toISOString().slice(0, 10);
  const days = (await collectedDays(runtime)).filter((d) => d < today);
  const { doc } = runtime.clients;
  const { tables } = runtime.resources;
  return archiveDays(
    {
      source: new DynamoArchiveSource(doc, tables),
      store: new FolderObjectStore(dataDir),
      lease: new DayLeaseItem(doc, tables.hosts),
      codec: archiveCodec(),
      ...archiveWindows(settings),
      // The deployed run's lease: the state machine's timeout.
      leaseMs: ARCHIVE_RUN_SECONDS * 1000,
      ...opts,
    },
    days,
    { runId: runId.replace(/[^A-Za-z0-9_-]/g, "-"), now },
  );
}

/** One line for a run's log: what was archived, or null when nothing was due. */
export function archiveSummary(outcomes: readonly DayOutcome[]): string | null {
  const done = outcomes.filter((o) => o.action === "archived");
  if (done.length === 0) return null;
  const days = done.map((o) => `${o.day} (${o.articles} articles, ${o.stories} stories)`).join(", ");
  return `archived ${days} into dataset/`;
}
