/** A local run's archive: the days before the run clock's go to DIR/dataset/, once, a later article re-runs its day, and a day expiring stays as archived. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeleteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { archiveLocalRun, archiveSummary } from "../../../infra/local/archive-run";
import { buildDataset, type Dataset } from "../../../shared/export/dataset";
import { crawlDemoWeb, type DemoWebCrawl, TEST_NOW } from "../../support/demo-web-crawl";

describe("archiveLocalRun", () => {
  let run: DemoWebCrawl;
  let dataset: Dataset;
  const dir = mkdtempSync(join(tmpdir(), "storytrail-local-archive-"));
  const nextDay = new Date("2026-12-03T00:10:00Z");

  beforeAll(async () => {
    run = await crawlDemoWeb("archiverun");
    dataset = await buildDataset(run.source);
  }, 240_000);
  afterAll(async () => {
    await run?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves the clock's own day, archives it once the day is over, and re-runs it when an article comes late", async () => {
    expect(await archiveLocalRun(run.runtime, dir, "r-1", new Date(TEST_NOW))).toEqual([]);
    const first = await archiveLocalRun(run.runtime, dir, "r-2", nextDay);
    expect(first).toMatchObject([
      { day: "2026-12-02", was: "missing", action: "archived", articles: dataset.articles.length },
    ]);
    expect(archiveSummary(first)).toBe(
      `archived 2026-12-02 (${dataset.articles.length} articles, ${dataset.stories.length} stories) into dataset/`,
    );
    expect(await archiveLocalRun(run.runtime, dir, "r-3", nextDay)).toMatchObject([{ action: "current" }]);

    // An article collected on the day, stored after its archive (a late delivery), changes the count.
    // It keeps two revisions: the day's lands in dataset/revisions/dt=2026-12-02/, the earlier day's
    // (archived with its own day) does not.
    const late = dataset.articles[0]!;
    const revision = (number: number, collected_at: string) => ({
      number,
      collected_at,
      modified_at: null,
      headline: `Revised ${number}`,
      previous_headline: late.headline,
      headline_changed: true,
      body_changed: true,
      body_hash: "0".repeat(32),
      words_added: 3,
      words_removed: 1,
      added_sample: "new words here",
      removed_sample: "old",
      notice: null,
      notice_text: null,
      previous_body_key: null,
    });
    await run.runtime.clients.doc.send(
      new UpdateCommand({
        TableName: run.runtime.resources.tables.articles,
        Key: { article_id: "late-article" },
        UpdateExpression:
          "SET collected_day = :d, collected_at = :t, #u = :u, source_id = :s, revisions = :r, revision_count = :n",
        ExpressionAttributeNames: { "#u": "url" },
        ExpressionAttributeValues: {
          ":d": "2026-12-02",
          ":t": "2026-12-02T23:59:00.000Z",
          ":u": `${late.url}?late`,
          ":s": late.source_id,
          ":r": [revision(1, "2026-12-01T10:00:00.000Z"), revision(2, "2026-12-02T23:59:00.000Z")],
          ":n": 2,
        },
      }),
    );
    const again = await archiveLocalRun(run.runtime, dir, "r-4", nextDay);
    expect(again).toMatchObject([
      { was: "changed", action: "archived", articles: dataset.articles.length + 1 },
    ]);
    const db = await DuckDBInstance.create(":memory:");
    const conn = await db.connect();
    const rows = (
      await conn.runAndReadAll(
        `SELECT dt::VARCHAR AS dt, count(*)::INTEGER AS n FROM read_parquet('${dir}/dataset/articles/*/*.parquet', hive_partitioning = true) GROUP BY dt`,
      )
    ).getRowObjectsJson();
    const revisions = (
      await conn.runAndReadAll(
        `SELECT dt::VARCHAR AS dt, number::INTEGER AS number, revision_count::INTEGER AS revision_count FROM read_parquet('${dir}/dataset/revisions/*/*.parquet', hive_partitioning = true) WHERE article_id = 'late-article'`,
      )
    ).getRowObjectsJson();
    conn.closeSync();
    db.closeSync();
    expect(rows).toEqual([{ dt: "2026-12-02", n: dataset.articles.length + 1 }]);
    expect(revisions).toEqual([{ dt: "2026-12-02", number: 2, revision_count: 2 }]);

    // The day's items expiring (the TTL takes some of them first): fewer stored than archived leaves
    // the marked day as it is; rewritten from what is left, it would lose the others.
    await run.runtime.clients.doc.send(
      new DeleteCommand({
        TableName: run.runtime.resources.tables.articles,
        Key: { article_id: "late-article" },
      }),
    );
    expect(await archiveLocalRun(run.runtime, dir, "r-5", nextDay)).toMatchObject([
      { was: "current", action: "current", articles: dataset.articles.length + 1 },
    ]);
    const db2 = await DuckDBInstance.create(":memory:");
    const conn2 = await db2.connect();
    const ids = (
      await conn2.runAndReadAll(
        `SELECT count(*)::INTEGER AS n, count(*) FILTER (article_id = 'late-article')::INTEGER AS late FROM read_parquet('${dir}/dataset/articles/*/*.parquet')`,
      )
    ).getRowObjectsJson();
    conn2.closeSync();
    db2.closeSync();
    expect(ids).toEqual([{ n: dataset.articles.length + 1, late: 1 }]);
  });
});
