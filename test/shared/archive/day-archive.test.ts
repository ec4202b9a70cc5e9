/**
 * The archive writer on a real run (the demo web crawled on the test emulators): into a local folder and
 * into fauxqs's S3, read back with DuckDB and compared with `storytrail export`'s rows and answers; the
 * crash between commit and marking, a damaged or missing manifest, two runs of one day at once and a
 * store that refuses a write.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { paginateScan } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FolderObjectStore } from "../../../infra/local/folder-object-store";
import { ArchiveError } from "../../../shared/archive/archive-error";
import { archiveDays } from "../../../shared/archive/archive-run";
import { type ArchiveDeps, archiveDay } from "../../../shared/archive/day-archive";
import { dayStatus, readManifest } from "../../../shared/archive/day-status";
import { manifestKey, symlinkKey } from "../../../shared/archive/layout";
import { archiveCodec } from "../../../shared/archive/parquet-codec";
import type { ObjectStore } from "../../../shared/archive/ports";
import { DynamoArchiveSource } from "../../../shared/aws/archive-tables";
import { DayLeaseItem } from "../../../shared/aws/day-lease-item";
import { S3ObjectStore } from "../../../shared/aws/s3-object-store";
import { buildDataset, type Dataset } from "../../../shared/export/dataset";
import { encodeTable } from "../../../shared/export/formats";
import { datasetTables } from "../../../shared/export/tables";
import { crawlDemoWeb, type DemoWebCrawl, TEST_NOW } from "../../support/demo-web-crawl";
import { duckRows } from "../../support/duck-rows";

const DAY = TEST_NOW.slice(0, 10);
const NOW = new Date("2026-12-03T01:30:00Z");
const HOT = 30 * 86_400;

/** The queries a consumer writes first, over `articles` and `stories` views. */
const QUERIES = {
  storiesByOutlets:
    "SELECT story_id, headline, article_count, outlet_count, seconds_to_2_outlets FROM stories ORDER BY outlet_count DESC, story_id",
  pickupDelays:
    "SELECT source_id, count(*) AS articles, median(delay_seconds) AS median_delay FROM articles WHERE story_id IS NOT NULL GROUP BY source_id ORDER BY source_id",
  dailyQuality:
    "SELECT source_id, CAST(collected_at AS DATE) AS day, count(*) AS n, avg(word_count) AS words, count(published_at) AS dated FROM articles GROUP BY ALL ORDER BY ALL",
  everyArticle: "SELECT * FROM articles ORDER BY article_id",
} as const;

/** The archive's views: every day's files (hive partitions), a story's latest row by updated_at. */
const archiveViews = (dir: string) => `
  CREATE VIEW articles AS SELECT * EXCLUDE (dt) FROM read_parquet('${dir}/dataset/articles/*/*.parquet', hive_partitioning = true);
  CREATE VIEW stories AS SELECT * EXCLUDE (dt) FROM read_parquet('${dir}/dataset/stories/*/*.parquet', hive_partitioning = true)
    QUALIFY row_number() OVER (PARTITION BY story_id ORDER BY updated_at DESC, dt DESC) = 1;`;
const exportViews = (dir: string) => `
  CREATE VIEW articles AS SELECT * FROM read_parquet('${dir}/articles.parquet');
  CREATE VIEW stories AS SELECT * FROM read_parquet('${dir}/stories.parquet');`;

describe("the archive of a collected day", () => {
  let run: DemoWebCrawl;
  let dataset: Dataset;
  const tmp = mkdtempSync(join(tmpdir(), "storytrail-archive-"));

  const deps = (store: ObjectStore, over: Partial<ArchiveDeps> = {}): ArchiveDeps => {
    const { doc } = run.runtime.clients;
    const t = run.runtime.resources.tables;
    return {
      source: new DynamoArchiveSource(doc, {
        articles: t.articles,
        fingerprints: t.fingerprints,
        clusters: t.clusters,
      }),
      store,
      lease: new DayLeaseItem(doc, t.hosts),
      codec: archiveCodec(),
      hotDays: 30,
      summaryDays: 90,
      leaseMs: 60_000,
      ...over,
    };
  };
  const scan = async (table: "articles" | "clusters") => {
    const out: Record<string, unknown>[] = [];
    for await (const p of paginateScan(
      { client: run.runtime.clients.doc },
      { TableName: run.runtime.resources.tables[table] },
    ))
      out.push(...((p.Items ?? []) as Record<string, unknown>[]));
    return out;
  };

  beforeAll(async () => {
    run = await crawlDemoWeb("archive");
    dataset = await buildDataset(run.source);
    const out = join(tmp, "export");
    mkdirSync(out);
    for (const t of datasetTables(dataset))
      writeFileSync(join(out, `${t.name}.parquet`), encodeTable(t, "parquet"));
  }, 240_000);

  afterAll(async () => {
    await run?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("the demo run's articles were all collected on the archived day", () => {
    expect(dataset.articles.length).toBeGreaterThan(20);
    expect(new Set(dataset.articles.map((a) => a.collected_at?.slice(0, 10)))).toEqual(new Set([DAY]));
  });

  it("a store that refuses a write is a clear error, commits nothing and expires nothing", async () => {
    const dir = join(tmp, "refusing");
    mkdirSync(join(dir, "dataset"), { recursive: true });
    writeFileSync(join(dir, "dataset", "articles"), "a file where the table's folder goes");
    const err = await archiveDay(deps(new FolderObjectStore(dir)), DAY, { runId: "r0", now: NOW }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ArchiveError);
    expect(err.code).toBe("store_refused");
    expect(err.message).toMatch(/refused to write dataset\/articles\/dt=2026-12-02\/part-r0-0-0000\.parquet/);
    const s3err = await archiveDay(
      deps(new S3ObjectStore(run.runtime.clients.s3, "no-such-bucket-storytrail")),
      DAY,
      {
        runId: "r0",
        now: NOW,
      },
    ).catch((e) => e);
    expect(s3err.code).toBe("store_refused");
    expect(await readManifest(new FolderObjectStore(dir), DAY)).toBeNull();
    expect((await scan("articles")).filter((a) => a.expires_at !== undefined)).toEqual([]);
    // The lease was released: the next run of the day is not kept out.
    expect(
      await new DayLeaseItem(run.runtime.clients.doc, run.runtime.resources.tables.hosts).acquire(
        DAY,
        "x",
        NOW,
        NOW,
      ),
    ).toBe(true);
    await new DayLeaseItem(run.runtime.clients.doc, run.runtime.resources.tables.hosts).release(DAY, "x");
  });

  it("a crash between the commit and the marking expires nothing; the next run marks the day", async () => {
    const store = new FolderObjectStore(join(tmp, "local"));
    const crash = new Error("stopped after the commit");
    await expect(
      archiveDay(deps(store), DAY, { runId: "r1", now: NOW, afterCommit: () => Promise.reject(crash) }),
    ).rejects.toBe(crash);
    const status = await dayStatus(deps(store).source, store, DAY);
    expect(status.state).toBe("unmarked");
    expect((await scan("articles")).filter((a) => a.expires_at !== undefined)).toEqual([]);
    // Only a retired story's summary (merged_into: no members, only the pointer) expires without an archive:
    // dedup gives it the LSH retention from its merge (docs/dedup.md), so every claim naming it resolves.
    const early = (await scan("clusters")).filter((c) => c.expires_at !== undefined);
    expect(early.filter((c) => !(c.item === "summary" && c.merged_into))).toEqual([]);

    const [outcome] = await archiveDays(deps(store), [DAY], { runId: "r2", now: NOW });
    expect(outcome).toMatchObject({
      day: DAY,
      was: "unmarked",
      action: "archived",
      articles: dataset.articles.length,
    });
    expect(outcome?.stories).toBe(dataset.stories.length);
    const articles = await scan("articles");
    for (const a of articles)
      expect(a.expires_at).toBe(Math.floor(Date.parse(String(a.collected_at)) / 1000) + HOT);
    const clusters = await scan("clusters");
    const live = new Set(dataset.stories.map((s) => s.story_id));
    // A member's latest collection is its Articles item's when later (a page fetched again: a URL
    // variant, a retry), as its member item keeps the first.
    const articleCollected = new Map(
      articles.map((a) => [String(a.article_id), Date.parse(String(a.collected_at))]),
    );
    for (const c of clusters.filter((i) => live.has(String(i.cluster_id)))) {
      const latest = Math.max(
        ...clusters
          .filter((m) => m.cluster_id === c.cluster_id && String(m.item).startsWith("member#"))
          .map((m) =>
            Math.floor(
              Math.max(Date.parse(String(m.collected_at)), articleCollected.get(String(m.article_id)) ?? 0) /
                1000,
            ),
          ),
      );
      expect(c.expires_at).toBe(latest + (c.item === "summary" ? 90 * 86_400 : HOT));
    }
    // Only the committed run's files are left; a second check finds the day current.
    expect((await store.list("dataset/articles/")).every((k) => k.includes("part-r2-"))).toBe(true);
    const [again] = await archiveDays(deps(store), [DAY], { runId: "r3", now: NOW });
    expect(again?.action).toBe("current");
  });

  it("DuckDB over the local dataset/ (hive partitions) answers as over storytrail export's files", async () => {
    const dir = join(tmp, "local");
    for (const sql of Object.values(QUERIES)) {
      const archived = await duckRows(`${archiveViews(dir)} ${sql}`);
      const exported = await duckRows(`${exportViews(join(tmp, "export"))} ${sql}`);
      expect(archived.length).toBeGreaterThan(0);
      expect(archived).toEqual(exported);
    }
    const [{ codec } = { codec: "" }] = await duckRows<{ codec: string }>(
      `SELECT DISTINCT compression AS codec FROM parquet_metadata('${dir}/dataset/articles/*/*.parquet') WHERE compression <> 'UNCOMPRESSED'`,
    );
    expect(codec).toBe(archiveCodec().name);
  });

  it("into fauxqs's S3: symlink lists, a manifest that matches the files, and a re-run that replaces the day", async () => {
    const store = new S3ObjectStore(run.runtime.clients.s3, run.runtime.resources.buckets.raw);
    await archiveDay(deps(store), DAY, { runId: "s1", now: NOW });
    const m = await archiveDay(deps(store), DAY, { runId: "s2", now: NOW });
    const keys = await store.list("dataset/");
    expect(keys.filter((k) => k.includes("part-s1-"))).toEqual([]);
    for (const table of ["articles", "stories"] as const) {
      const listed = new TextDecoder().decode((await store.get(symlinkKey(table, DAY))) ?? new Uint8Array());
      expect(listed).toBe(
        m.tables[table].map((f) => `s3://${run.runtime.resources.buckets.raw}/${f.key}\n`).join(""),
      );
      for (const f of m.tables[table]) {
        const bytes = (await store.get(f.key)) ?? new Uint8Array();
        expect(bytes.byteLength).toBe(f.bytes);
        expect(createHash("sha256").update(bytes).digest("hex")).toBe(f.sha256);
        const file = join(tmp, `${table}-${f.sha256}.parquet`);
        writeFileSync(file, bytes);
        const ids = await duckRows<{ id: string }>(
          `SELECT ${table === "articles" ? "article_id" : "story_id"} AS id FROM '${file}' ORDER BY id`,
        );
        const expected = (
          table === "articles"
            ? dataset.articles.map((a) => a.article_id)
            : dataset.stories.map((s) => s.story_id)
        ).sort();
        expect(ids.map((r) => r.id)).toEqual(expected);
      }
    }
  });

  it("a damaged manifest is a clear error and the day's next run rewrites it; a missing one is run again", async () => {
    const dir = join(tmp, "local");
    const store = new FolderObjectStore(dir);
    const file = join(dir, manifestKey(DAY));
    const good = readFileSync(file);
    writeFileSync(file, good.subarray(0, 40));
    const err = await readManifest(store, DAY).catch((e) => e);
    expect(err).toBeInstanceOf(ArchiveError);
    expect(err.message).toBe(
      `${manifestKey(DAY)} is damaged (not JSON): re-run the day's archive to rewrite it`,
    );
    writeFileSync(file, JSON.stringify({ ...JSON.parse(good.toString()), tables: { articles: "x" } }));
    expect((await readManifest(store, DAY).catch((e) => e)).message).toMatch(
      /is damaged \(tables\.articles: /,
    );
    const [outcome] = await archiveDays(deps(store), [DAY], { runId: "r4", now: NOW });
    expect(outcome).toMatchObject({ was: "damaged", action: "archived", articles: dataset.articles.length });
    expect((await readManifest(store, DAY))?.run_id).toBe("r4");
    rmSync(file);
    const [rerun] = await archiveDays(deps(store), [DAY], { runId: "r5", now: NOW });
    expect(rerun).toMatchObject({ was: "missing", action: "archived" });
    expect((await store.list("dataset/")).filter((k) => k.includes("part-r4-"))).toEqual([]);
  });

  it("two runs of one day at once: one archives it, the other is refused and changes nothing", async () => {
    const store = new FolderObjectStore(join(tmp, "twice"));
    const runs = await Promise.allSettled(
      ["a", "b"].map((runId) => archiveDay(deps(store), DAY, { runId, now: NOW })),
    );
    const refused = runs.filter((r) => r.status === "rejected");
    expect(refused).toHaveLength(1);
    const reason = (refused[0] as PromiseRejectedResult).reason;
    expect(reason.code).toBe("day_busy");
    expect(reason.message).toMatch(/another run is archiving 2026-12-02/);
    const winner = (await readManifest(store, DAY))?.run_id;
    expect(
      (await store.list("dataset/")).filter((k) => k.endsWith(".parquet") && !k.includes(`part-${winner}-`)),
    ).toEqual([]);
    // A holder whose time ran out (its function died) no longer keeps the day.
    const lease = new DayLeaseItem(run.runtime.clients.doc, run.runtime.resources.tables.hosts);
    expect(await lease.acquire(DAY, "dead", NOW, new Date(NOW.getTime() + 1000))).toBe(true);
    expect(await lease.acquire(DAY, "c", NOW, NOW)).toBe(false);
    expect(await lease.acquire(DAY, "c", new Date(NOW.getTime() + 2000), NOW)).toBe(true);
    await lease.release(DAY, "c");
  });
});
