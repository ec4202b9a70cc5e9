/**
 * The lifecycle invariants of a run over days (issue 40, Must haves 1, 3 and 6), checked on the run's
 * folder after each day with its emulators stopped: DynamoDB Local opened on DIR/dynamodb (as `storytrail
 * export` reads a run) and the archive's Parquet under DIR/dataset/ read with DuckDB (as a consumer does).
 * bench/demo-days.ts calls them; test/bench/demo-days.test.ts runs them with a 1-day hot window.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { paginateScan } from "@aws-sdk/lib-dynamodb";
import { DuckDBInstance } from "@duckdb/node-api";
import { startEmulators } from "../infra/local/emulators";
import { physicalNames } from "../infra/local/resources";
import { IGNORED_AFTER_SECONDS } from "../infra/local/ttl-sweeper";
import { type TableName, topology } from "../infra/topology";
import { dayBefore } from "../shared/archive/layout";
import { decodeManifest, manifestRows } from "../shared/archive/manifest";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { datasetKeys, datasetTableNames, LOCAL_PREFIX } from "../shared/config/resource-names";

/** What a hook found: `checked: false` when it did not look (a test's stand-in). */
export interface HookVerdict {
  readonly checked: boolean;
  readonly problems: readonly string[];
  readonly note?: string;
}

/** Called after each day's run with the run's folder (its emulators stopped), the day (YYYY-MM-DD) and
 * the run's clock at its start (`--at`: when the TTL sweep ran). */
export interface LifecycleHooks {
  /** The hot tables hold only the window: no item of a TTL table whose `expires_at` had passed at the
   * run's clock (the sweep ran), no Articles item collected before (day − hot days), no story's member
   * or outlet items once its latest member was collected before then. */
  hotTablesHoldOnlyTheWindow(dataDir: string, day: string, at: Date): Promise<HookVerdict>;
  /** The archive under DIR/dataset/ holds every article stored so far exactly once: its article rows
   * (over all `dt=` partitions), with the Articles items of the day itself (archived by the next day's
   * run), are `articleIds`, none twice, each in the dt of its collected day; each manifest's rows are
   * its partition's Parquet rows. */
  archiveHoldsEachArticleOnce(
    dataDir: string,
    day: string,
    articleIds: ReadonlySet<string>,
  ): Promise<HookVerdict>;
}

/** Problems listed per check before "… and N more" (a broken day would list every item). */
const SHOWN = 5;

type Item = Record<string, unknown>;
/** The TTL'd tables' items after a day, keys and lifecycle fields only (bodies are not read). */
type HotState = Partial<Record<TableName, Item[]>>;

const day = (iso: unknown): string => String(iso).slice(0, 10);

function listed(what: string, found: readonly string[]): string[] {
  if (found.length === 0) return [];
  const more = found.length > SHOWN ? ` … and ${found.length - SHOWN} more` : "";
  return [`${found.length} ${what}: ${found.slice(0, SHOWN).join(", ")}${more}`];
}

/** Every table with a TTL attribute, scanned once on the folder's DynamoDB Local. */
async function readHotState(dataDir: string): Promise<HotState> {
  const emulators = await startEmulators({ dynamoPath: join(resolve(dataDir), "dynamodb") });
  const { dynamo, doc } = makeDynamoClients(emulators.endpoints, "us-east-1");
  try {
    const names = physicalNames(LOCAL_PREFIX);
    const state: HotState = {};
    for (const [name, spec] of Object.entries(topology.tables) as [
      TableName,
      (typeof topology.tables)[TableName],
    ][]) {
      if (!spec.timeToLiveAttribute) continue;
      const fields = [spec.partitionKey.name, spec.sortKey?.name, spec.timeToLiveAttribute, "collected_at"];
      const wanted = [...new Set(fields.filter((f): f is string => f !== undefined))];
      const items: Item[] = [];
      const pages = paginateScan(
        { client: doc },
        {
          TableName: names.table(name),
          ProjectionExpression: wanted.map((_, i) => `#f${i}`).join(", "),
          ExpressionAttributeNames: Object.fromEntries(wanted.map((f, i) => [`#f${i}`, f])),
        },
      );
      for await (const page of pages) items.push(...((page.Items ?? []) as Item[]));
      state[name] = items;
    }
    return state;
  } finally {
    dynamo.destroy();
    await emulators.stop();
  }
}

function checkWindow(state: HotState, today: string, at: Date, hotDays: number): string[] {
  const nowSeconds = Math.floor(at.getTime() / 1000);
  const problems: string[] = [];
  // The sweep ran at the run's start: nothing it should have deleted is left, in any TTL'd table.
  // Hosts is left out: its items (the pacer's slots, the archive's day leases) expire on the wall clock,
  // which a run's `--at` may be days ahead of or behind.
  for (const [name, items] of Object.entries(state)) {
    if (name === "hosts") continue;
    const ttl = topology.tables[name as TableName].timeToLiveAttribute ?? "expires_at";
    const late = items.filter((i) => {
      const e = i[ttl];
      return typeof e === "number" && e <= nowSeconds && e > nowSeconds - IGNORED_AFTER_SECONDS;
    });
    problems.push(
      ...listed(
        `${name} items expired by ${at.toISOString()} still stored`,
        late.map((i) => JSON.stringify(i)),
      ),
    );
  }
  // Collected on day D, an article expires at its collected_at + hot days, so the sweep at the start of
  // day D + hot + 1 has taken it (the runs start at one time of day: day D + hot's starts a little early).
  const oldest = dayBefore(new Date(`${today}T00:00:00Z`), hotDays);
  const articles = state.articles ?? [];
  problems.push(
    ...listed(
      `Articles items collected before ${oldest}`,
      articles
        .filter((a) => day(a.collected_at) < oldest)
        .map((a) => `${a.article_id} (${day(a.collected_at)})`),
    ),
  );
  // A story's member and outlet items go with its latest member (a story still growing stays hot).
  // A re-fetched article's collected_at moves on its Articles item, not on its member item.
  const collectedOf = new Map(articles.map((a) => [String(a.article_id), day(a.collected_at)]));
  const latest = new Map<string, string>();
  const clusters = state.clusters ?? [];
  for (const i of clusters)
    if (String(i.item).startsWith("member#")) {
      const id = String(i.cluster_id);
      const member = day(i.collected_at);
      const article = collectedOf.get(String(i.item).slice("member#".length)) ?? "";
      const c = [member, article].sort().at(-1) ?? member;
      if ((latest.get(id) ?? "") < c) latest.set(id, c);
    }
  const stale = [...latest].filter(([, d]) => d < oldest).map(([id, d]) => `${id} (latest member ${d})`);
  problems.push(...listed(`stories whose members stay after their latest member (before ${oldest})`, stale));
  const orphans = clusters.filter(
    (i) => String(i.item).startsWith("outlet#") && !latest.has(String(i.cluster_id)),
  );
  problems.push(
    ...listed(
      "outlet items of a story with no member left",
      orphans.map((i) => `${i.cluster_id} ${i.item}`),
    ),
  );
  return problems;
}

async function duck(sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(":memory:");
  const conn = await db.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** The archive's article rows (id, collected day, dt) and per table and dt the Parquet's row count. */
async function readArchive(dataDir: string) {
  const root = join(resolve(dataDir), datasetKeys.root);
  const glob = (table: string) => join(root, table, "*", "*.parquet").replaceAll("'", "''");
  const hasFiles = (table: string) =>
    existsSync(join(root, table)) &&
    readdirSync(join(root, table)).some((dt) => readdirSync(join(root, table, dt)).length > 0);
  const rows = hasFiles("articles")
    ? await duck(
        `SELECT article_id, strftime(collected_at, '%Y-%m-%d') AS collected, dt FROM read_parquet('${glob("articles")}', hive_partitioning = true, hive_types = {'dt': VARCHAR})`,
      )
    : [];
  const counts = new Map<string, number>();
  for (const table of datasetTableNames)
    if (hasFiles(table))
      for (const r of await duck(
        `SELECT dt, count(*) AS n FROM read_parquet('${glob(table)}', hive_partitioning = true, hive_types = {'dt': VARCHAR}) GROUP BY dt`,
      ))
        counts.set(`${table} ${r.dt}`, Number(r.n));
  return { root, rows, counts };
}

function checkManifests(root: string, counts: ReadonlyMap<string, number>): string[] {
  const dir = join(root, "_manifests");
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const file of existsSync(dir) ? readdirSync(dir) : []) {
    const m = decodeManifest(file, readFileSync(join(dir, file)));
    for (const table of datasetTableNames) {
      seen.add(`${table} ${m.day}`);
      const parquet = counts.get(`${table} ${m.day}`) ?? 0;
      if (manifestRows(m, table) !== parquet)
        problems.push(
          `${m.day} ${table}: the manifest says ${manifestRows(m, table)} rows, the Parquet holds ${parquet}`,
        );
    }
  }
  for (const k of counts.keys()) if (!seen.has(k)) problems.push(`${k}: Parquet rows with no manifest`);
  return problems;
}

/** The hooks for a run whose hot window is `hotDays` (the STORYTRAIL_HOT_DAYS its children run with). */
export function lifecycleHooks(hotDays: number): LifecycleHooks {
  // Both hooks read the day's tables: one DynamoDB Local start a day, not two (it takes seconds).
  let cached: { key: string; state: Promise<HotState> } | undefined;
  const stateOf = (dataDir: string, today: string) => {
    const key = `${dataDir} ${today}`;
    if (cached?.key !== key) cached = { key, state: readHotState(dataDir) };
    return cached.state;
  };
  return {
    async hotTablesHoldOnlyTheWindow(dataDir, today, at) {
      const state = await stateOf(dataDir, today);
      return {
        checked: true,
        problems: checkWindow(state, today, at, hotDays),
        note: `${state.articles?.length ?? 0} hot articles, collected ${[...new Set((state.articles ?? []).map((a) => day(a.collected_at)))].sort().join(" ")}`,
      };
    },
    async archiveHoldsEachArticleOnce(dataDir, today, articleIds) {
      const [state, archive] = await Promise.all([stateOf(dataDir, today), readArchive(dataDir)]);
      const problems: string[] = [];
      const times = new Map<string, number>();
      for (const r of archive.rows)
        times.set(String(r.article_id), (times.get(String(r.article_id)) ?? 0) + 1);
      problems.push(
        ...listed(
          "articles archived more than once",
          [...times].filter(([, n]) => n > 1).map(([id, n]) => `${id} ×${n}`),
        ),
      );
      problems.push(
        ...listed(
          "archived articles outside the dt of their collected day",
          archive.rows
            .filter((r) => r.collected !== r.dt)
            .map((r) => `${r.article_id} (collected ${r.collected}, dt=${r.dt})`),
        ),
      );
      // The day's own articles are archived by the next day's run; every earlier one is in the archive.
      const pending = (state.articles ?? [])
        .filter((a) => day(a.collected_at) >= today)
        .map((a) => String(a.article_id));
      problems.push(
        ...listed(
          "of the day's articles already archived",
          pending.filter((id) => times.has(id)),
        ),
      );
      const held = new Set([...times.keys(), ...pending]);
      problems.push(
        ...listed(
          "articles stored but neither archived nor the day's",
          [...articleIds].filter((id) => !held.has(id)),
        ),
      );
      problems.push(
        ...listed(
          "archived articles never stored",
          [...held].filter((id) => !articleIds.has(id)),
        ),
      );
      problems.push(...checkManifests(archive.root, archive.counts));
      return {
        checked: true,
        problems,
        note: `${times.size} articles archived in ${new Set(archive.rows.map((r) => r.dt)).size} days, ${pending.length} of the day's pending`,
      };
    },
  };
}
