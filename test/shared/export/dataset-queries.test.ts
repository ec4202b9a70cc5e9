/**
 * The first queries of docs/dataset.md, run by DuckDB on a real local run's archive layout (the export's
 * Parquet files under `dataset/<table>/dt=YYYY-MM-DD/`, read with hive_partitioning) and compared with
 * the same answers computed from the export's JSONL of that run.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetKeys } from "../../../shared/config/resource-names";
import { buildDataset } from "../../../shared/export/dataset";
import {
  athenaTables,
  type DayRange,
  duckdbTables,
  outletPickupDelays,
  publisherDailyQuality,
  storiesByOutletCount,
} from "../../../shared/export/dataset-queries";
import { encodeTable } from "../../../shared/export/formats";
import { datasetTables, type Table } from "../../../shared/export/tables";
import { crawlDemoWeb, type DemoWebCrawl } from "../../support/demo-web-crawl";

type Row = Record<string, unknown>;
const dayOf = (iso: unknown) => String(iso).slice(0, 10);
const round = (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;
/** DuckDB's BIGINT comes back as text: every figure as a number, text as text. */
const plain = (rows: Row[]) =>
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [
        k,
        typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v,
      ]),
    ),
  );
const readJsonl = (file: string): Row[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);

describe("the dataset's first queries on a local archive (DuckDB) equal the export's answers", () => {
  let run: DemoWebCrawl;
  const out = mkdtempSync(join(tmpdir(), "storytrail-queries-"));
  let articles: Row[];
  let stories: Row[];
  let range: DayRange;
  let query: (sql: string) => Promise<Row[]>;
  let closeDb: () => void;

  beforeAll(async () => {
    run = await crawlDemoWeb("dataset-queries");
    const tables = datasetTables(await buildDataset(run.source));
    const [articleTable, storyTable] = tables as [Table, Table];
    for (const t of tables) writeFileSync(join(out, `${t.name}.jsonl`), encodeTable(t, "jsonl"));
    articles = readJsonl(join(out, "articles.jsonl"));
    stories = readJsonl(join(out, "stories.jsonl"));
    // The archive's layout: a day's articles by collected_at, and each story in every day of its articles.
    const storyDays = new Map<string, Set<string>>();
    for (const a of articleTable.rows) {
      const days = storyDays.get(String(a.story_id)) ?? new Set();
      storyDays.set(String(a.story_id), days.add(dayOf(a.collected_at)));
    }
    const byDay = new Map<string, { articles: Row[]; stories: Row[] }>();
    const day = (d: string) => byDay.get(d) ?? byDay.set(d, { articles: [], stories: [] }).get(d)!;
    for (const a of articleTable.rows) day(dayOf(a.collected_at)).articles.push(a);
    for (const s of storyTable.rows)
      for (const d of storyDays.get(String(s.story_id)) ?? []) day(d).stories.push(s);
    for (const [d, rows] of byDay) {
      for (const [name, t] of [
        ["articles", { ...articleTable, rows: rows.articles }],
        ["stories", { ...storyTable, rows: rows.stories }],
      ] as const) {
        const folder = join(out, datasetKeys.day(name, d));
        mkdirSync(folder, { recursive: true });
        writeFileSync(join(folder, "part-test-00000.parquet"), encodeTable(t, "parquet"));
      }
    }
    const sorted = [...byDay.keys()].sort();
    range = { from: sorted[0]!, to: sorted[sorted.length - 1]! };
    const db = await DuckDBInstance.create(":memory:");
    const conn = await db.connect();
    query = async (sql) => plain((await conn.runAndReadAll(sql)).getRowObjectsJson() as Row[]);
    closeDb = () => {
      conn.closeSync();
      db.closeSync();
    };
  }, 300_000);

  afterAll(async () => {
    closeDb?.();
    await run?.close();
    rmSync(out, { recursive: true, force: true });
  });

  const local = () => duckdbTables(join(out, "dataset"));
  const sources = () => [...new Set(articles.map((a) => String(a.source_id)))].sort();
  const inRange = (a: Row) => dayOf(a.collected_at) >= range.from && dayOf(a.collected_at) <= range.to;

  it("a week's stories by outlet count", async () => {
    const expected = [...stories]
      .sort(
        (a, b) =>
          Number(b.outlet_count) - Number(a.outlet_count) ||
          Number(b.article_count) - Number(a.article_count) ||
          String(a.story_id).localeCompare(String(b.story_id)),
      )
      .slice(0, 20)
      .map((s) => ({
        story_id: s.story_id,
        headline: s.headline,
        outlet_count: s.outlet_count,
        article_count: s.article_count,
      }));
    expect(expected[0]!.outlet_count).toBeGreaterThan(1);
    expect(await query(storiesByOutletCount(local(), range))).toEqual(expected);
    expect(await query(storiesByOutletCount(local(), { from: "2001-01-01", to: "2001-01-07" }))).toEqual([]);
  });

  it("each outlet's pick-up delays per day", async () => {
    let pickups = 0;
    for (const source of sources()) {
      const mine = articles.filter(
        (a) => a.source_id === source && Number(a.delay_seconds) > 0 && inRange(a),
      );
      const days = [...new Set(mine.map((a) => dayOf(a.collected_at)))].sort();
      const expected = days.map((day) => {
        const delays = mine.filter((a) => dayOf(a.collected_at) === day).map((a) => Number(a.delay_seconds));
        return {
          day,
          pickups: delays.length,
          min_delay_seconds: Math.min(...delays),
          max_delay_seconds: Math.max(...delays),
          avg_delay_seconds: round(delays.reduce((x, y) => x + y, 0) / delays.length),
          within_an_hour: delays.filter((d) => d <= 3600).length,
        };
      });
      pickups += mine.length;
      expect(await query(outletPickupDelays(local(), source, range))).toEqual(expected);
    }
    expect(pickups).toBeGreaterThan(0);
  });

  it("each publisher's daily article count and extraction quality", async () => {
    for (const source of sources()) {
      const mine = articles.filter((a) => a.source_id === source && inRange(a));
      const days = [...new Set(mine.map((a) => dayOf(a.collected_at)))].sort();
      const expected = days.map((day) => {
        const rows = mine.filter((a) => dayOf(a.collected_at) === day);
        const share = (f: (a: Row) => boolean) => round(rows.filter(f).length / rows.length, 3);
        return {
          day,
          articles: rows.length,
          avg_words: round(rows.reduce((x, a) => x + Number(a.word_count), 0) / rows.length),
          with_date: share((a) => a.published_at !== null),
          with_headline: share((a) => a.headline !== null),
          paywalled: share((a) => a.is_accessible_for_free === false),
        };
      });
      expect(await query(publisherDailyQuality(local(), source, range))).toEqual(expected);
    }
    // The demo web's paywalled outlet shows in the figures.
    const all = await Promise.all(sources().map((s) => query(publisherDailyQuality(local(), s, range))));
    expect(all.flat().some((r) => Number(r.paywalled) > 0)).toBe(true);
  });

  it("names Glue's tables for Athena, quotes values and refuses a range that is not days", () => {
    const sql = outletPickupDelays(athenaTables("news_dataset"), "o'brien-daily", range);
    expect(sql).toContain(`FROM "news_dataset"."articles"`);
    expect(sql).toContain(`source_id = 'o''brien-daily'`);
    expect(() => publisherDailyQuality(local(), "x", { from: "2026-12-1", to: range.to })).toThrow(
      /not a day YYYY-MM-DD/,
    );
    expect(() => storiesByOutletCount(local(), range, 0)).toThrow(/limit/);
  });
});
