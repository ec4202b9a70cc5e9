/**
 * A day written in shards (the demo web crawled on the test emulators, cut into 3 shards by a small
 * shard cap): its Parquet rows are the one-shard run's, each article and story once (stories met by
 * two shards too); a crash after the shards wrote or between commit and marking, and a store that
 * refuses a shard's write, leave what is current as it was and the next run completes the day.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { paginateScan } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FolderObjectStore } from "../../../infra/local/folder-object-store";
import { ArchiveError } from "../../../shared/archive/archive-error";
import { archiveDays } from "../../../shared/archive/archive-run";
import { type ArchiveDeps, archiveDay } from "../../../shared/archive/day-archive";
import { commitDay } from "../../../shared/archive/day-commit";
import { dayStatus, readManifest } from "../../../shared/archive/day-status";
import { archiveCodec } from "../../../shared/archive/parquet-codec";
import type { ObjectStore } from "../../../shared/archive/ports";
import { MARK_START, type MarkProgress, markShard } from "../../../shared/archive/shard-mark";
import { cutDay, planDay } from "../../../shared/archive/shard-plan";
import { writeShard } from "../../../shared/archive/shard-write";
import { ledgerKey, readLedger } from "../../../shared/archive/work-area";
import { DynamoArchiveSource } from "../../../shared/aws/archive-tables";
import { DayLeaseItem } from "../../../shared/aws/day-lease-item";
import { buildDataset, type Dataset } from "../../../shared/export/dataset";
import { crawlDemoWeb, type DemoWebCrawl, TEST_NOW } from "../../support/demo-web-crawl";
import { duckRows } from "../../support/duck-rows";

const DAY = TEST_NOW.slice(0, 10);
const NOW = new Date("2026-12-03T01:30:00Z");
const HOT = 30 * 86_400;

const rowsOf = (dir: string, table: string, order: string) =>
  duckRows(`SELECT * FROM read_parquet('${dir}/dataset/${table}/*/*.parquet') ORDER BY ${order}`);

describe("a day archived in shards", () => {
  let run: DemoWebCrawl;
  let dataset: Dataset;
  /** The shard cap that cuts the demo day into 3. */
  let cap: number;
  const tmp = mkdtempSync(join(tmpdir(), "storytrail-shards-"));

  const deps = (store: ObjectStore, over: Partial<ArchiveDeps> = {}): ArchiveDeps => {
    const { doc } = run.runtime.clients;
    const t = run.runtime.resources.tables;
    return {
      source: new DynamoArchiveSource(doc, t),
      store,
      lease: new DayLeaseItem(doc, t.hosts),
      codec: archiveCodec(),
      hotDays: 30,
      summaryDays: 90,
      leaseMs: 60_000,
      shardArticles: cap,
      ...over,
    };
  };
  const folder = (name: string) => new FolderObjectStore(join(tmp, name));
  const expiring = async () => {
    const out: Record<string, unknown>[] = [];
    for await (const p of paginateScan(
      { client: run.runtime.clients.doc },
      { TableName: run.runtime.resources.tables.articles },
    ))
      out.push(...((p.Items ?? []) as Record<string, unknown>[]).filter((a) => a.expires_at !== undefined));
    return out;
  };
  const leaseIsFree = async () => {
    const lease = new DayLeaseItem(run.runtime.clients.doc, run.runtime.resources.tables.hosts);
    const free = await lease.acquire(DAY, "probe", NOW, NOW);
    if (free) await lease.release(DAY, "probe");
    return free;
  };

  beforeAll(async () => {
    run = await crawlDemoWeb("shards");
    dataset = await buildDataset(run.source);
    cap = Math.ceil(dataset.articles.length / 3);
  }, 240_000);

  afterAll(async () => {
    await run?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("cuts the demo day into 3 contiguous ranges from its hour's keys", async () => {
    const shards = await cutDay(deps(folder("plan")).source, DAY, cap);
    expect(shards).toHaveLength(3);
    expect(shards[0]?.from).toBeNull();
    expect(shards[2]?.to).toBeNull();
    expect(shards[1]?.from).toBe(shards[0]?.to);
    expect(shards[2]?.from).toBe(shards[1]?.to);
  });

  it("a crash between the commit and the marking: the day is unmarked; the next run marks it", async () => {
    const store = folder("crash-commit");
    const crash = new Error("stopped after the commit");
    await expect(
      archiveDay(deps(store), DAY, { runId: "m1", now: NOW, afterCommit: () => Promise.reject(crash) }),
    ).rejects.toBe(crash);
    expect((await dayStatus(deps(store).source, store, DAY)).state).toBe("unmarked");
    expect(await expiring()).toEqual([]);
    expect(await leaseIsFree()).toBe(true);
    const [outcome] = await archiveDays(deps(store), [DAY], { runId: "m2", now: NOW });
    expect(outcome).toMatchObject({ was: "unmarked", action: "archived" });
    expect((await readManifest(store, DAY))?.marked_at).toBe(NOW.toISOString());
    const marked = await expiring();
    expect(marked.length).toBe(dataset.articles.length);
    for (const a of marked)
      expect(a.expires_at).toBe(Math.floor(Date.parse(String(a.collected_at)) / 1000) + HOT);
  });

  it("a crash after the shards wrote, before the commit: nothing current, lease free; the re-run completes the day and deletes the crashed parts", async () => {
    const store = folder("crash-writes");
    const before = await expiring();
    const crash = new Error("stopped before the commit");
    await expect(
      archiveDay(deps(store), DAY, { runId: "w1", now: NOW, afterWrites: () => Promise.reject(crash) }),
    ).rejects.toBe(crash);
    expect(await readManifest(store, DAY)).toBeNull();
    expect((await store.list("dataset/articles/")).filter((k) => k.includes("part-w1-"))).toHaveLength(3);
    // The previous test's run marked the day's items: the crashed run changed none of them.
    expect(await expiring()).toEqual(before);
    expect(await leaseIsFree()).toBe(true);

    const [outcome] = await archiveDays(deps(store), [DAY], { runId: "w2", now: NOW });
    expect(outcome).toMatchObject({ was: "missing", action: "archived", articles: dataset.articles.length });
    const left = await store.list("dataset/");
    expect(left.filter((k) => k.includes("part-w1-"))).toEqual([]);
    expect(left.filter((k) => k.startsWith("dataset/_work/"))).toEqual([]);
  });

  it("a store that refuses a shard's write is store_refused: the lease is released and the current day is unchanged", async () => {
    const dir = join(tmp, "refusing");
    const store = new FolderObjectStore(dir);
    const committed = await archiveDay(deps(store), DAY, { runId: "r0", now: NOW });
    // A file where run r1's work area goes: its first shard's ledger cannot be written.
    mkdirSync(join(dir, "dataset", "_work", `dt=${DAY}`), { recursive: true });
    writeFileSync(join(dir, "dataset", "_work", `dt=${DAY}`, "r1"), "in the way");
    const err = await archiveDay(deps(store), DAY, { runId: "r1", now: NOW }).catch((e) => e);
    expect(err).toBeInstanceOf(ArchiveError);
    expect(err.code).toBe("store_refused");
    expect(err.message).toContain(`refused to write dataset/_work/dt=${DAY}/r1/shard-0/stories.jsonl.gz`);
    expect(await leaseIsFree()).toBe(true);
    expect(await readManifest(store, DAY)).toEqual(committed);
    for (const f of committed.tables.articles) expect(await store.get(f.key)).not.toBeNull();
  });

  it("writes the rows one shard writes: each article once, each story once, also those two shards met", async () => {
    const one = folder("one");
    const three = folder("three");
    await archiveDay(deps(one, { shardArticles: undefined }), DAY, { runId: "one", now: NOW });
    // Before the finish deletes the work area: which stories each shard's ledger holds.
    const met = new Map<string, number>();
    await archiveDay(deps(three), DAY, {
      runId: "three",
      now: NOW,
      afterCommit: async () => {
        for (const n of [0, 1, 2])
          for await (const row of readLedger<{ story_id: string }>(
            three,
            ledgerKey(DAY, "three", n, "stories"),
          ))
            met.set(row.story_id, (met.get(row.story_id) ?? 0) + 1);
      },
    });
    expect((await one.list("dataset/articles/")).every((k) => k.includes("part-one-0-"))).toBe(true);
    const threeFiles = await three.list("dataset/articles/");
    for (const n of [0, 1, 2]) expect(threeFiles.some((k) => k.includes(`part-three-${n}-`))).toBe(true);
    expect([...met.values()].filter((n) => n > 1).length).toBeGreaterThanOrEqual(2);

    const [dirOne, dirThree] = [join(tmp, "one"), join(tmp, "three")];
    for (const [table, key] of [
      ["articles", "article_id"],
      ["stories", "story_id"],
      ["revisions", "article_id, number"],
    ] as const) {
      // The demo's first day keeps no revisions: neither run writes a revisions file then.
      const files = (await one.list(`dataset/${table}/`)).length;
      expect((await three.list(`dataset/${table}/`)).length > 0).toBe(files > 0);
      if (files > 0) expect(await rowsOf(dirThree, table, key)).toEqual(await rowsOf(dirOne, table, key));
    }
    const [counts] = await duckRows<{ articles: number; ids: number; stories: number; storyIds: number }>(
      `SELECT (SELECT count(*)::INTEGER FROM read_parquet('${dirThree}/dataset/articles/*/*.parquet')) AS articles,
              (SELECT count(DISTINCT article_id)::INTEGER FROM read_parquet('${dirThree}/dataset/articles/*/*.parquet')) AS ids,
              (SELECT count(*)::INTEGER FROM read_parquet('${dirThree}/dataset/stories/*/*.parquet')) AS stories,
              (SELECT count(DISTINCT story_id)::INTEGER FROM read_parquet('${dirThree}/dataset/stories/*/*.parquet')) AS storyIds`,
    );
    expect(counts).toEqual({
      articles: dataset.articles.length,
      ids: dataset.articles.length,
      stories: dataset.stories.length,
      storyIds: dataset.stories.length,
    });
    expect((await three.list("dataset/")).filter((k) => k.startsWith("dataset/_work/"))).toEqual([]);
  });
  // Last: it marks with a longer window (40 days), which the tests before would see, since a mark
  // never moves an expiry earlier.
  it("a mark short of time stops after a batch and says where; marked again from there, the shard ends as one pass marks it", async () => {
    const store = folder("resumed-mark");
    const d = deps(store, { hotDays: 40 });
    const plan = await planDay(d, DAY, "r1", NOW);
    for (const shard of plan.shards) await writeShard(d, plan, shard);
    await commitDay(d, plan, NOW);
    const at40 = async () =>
      (await expiring()).filter(
        (a) => a.expires_at === Math.floor(Date.parse(String(a.collected_at)) / 1000) + 40 * 86_400,
      ).length;
    const lines = async (n: number) => {
      let count = 0;
      for await (const _ of readLedger(store, ledgerKey(DAY, "r1", n, "article-marks"))) count++;
      return count;
    };
    const shard = plan.shards[0]!.n;
    const articles = await lines(shard);
    expect(articles).toBeGreaterThan(10);
    // No time left: one batch of 4, then it stops and says where.
    const first = await markShard(d, plan, shard, { batch: 4, timeLeftMs: () => 0 });
    expect(first).toEqual({ articles: 4, stories: 0 });
    expect(await at40()).toBe(4);
    // Invoked again from there until done, as the state machine does.
    let next: MarkProgress | null = first;
    let steps = 1;
    while (next) {
      next = await markShard(d, plan, shard, { from: next, batch: 4, timeLeftMs: () => 0 });
      steps++;
    }
    expect(steps).toBeGreaterThan(Math.ceil(articles / 4));
    expect(await at40()).toBe(articles);
    // Time to spare: the other shards in one step each.
    for (const s of plan.shards.slice(1))
      expect(
        await markShard(d, plan, s.n, { from: MARK_START, batch: 4, timeLeftMs: () => 900_000 }),
      ).toBeNull();
    expect(await at40()).toBe(dataset.articles.length);
    await d.lease.release(DAY, "r1");
  });
});
