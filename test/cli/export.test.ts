/**
 * `storytrail export` on a real local run of the demo web: the rows say what the web served, and the
 * three formats hold the same rows, read back by an independent reader (DuckDB) for CSV and Parquet.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { marshall } from "@aws-sdk/util-dynamodb";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataset, type Dataset } from "../../shared/export/dataset";
import { encodeTable, exportFormats } from "../../shared/export/formats";
import { datasetTables, type Table } from "../../shared/export/tables";
import { crawlDemoWeb, type DemoWebCrawl } from "../support/demo-web-crawl";

const repo = resolve(import.meta.dirname, "../..");

const readJsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A DuckDB value as the JSONL spells it: ISO instants with milliseconds, JSON columns parsed. */
function fromDuck(v: unknown, kind: string): unknown {
  if (v === null || v === undefined) return null;
  if (kind === "timestamp") {
    const s = String(v); // CSV: the ISO text as written; Parquet: DuckDB's "YYYY-MM-DD hh:mm:ss.sss" in UTC
    return new Date(s.endsWith("Z") ? s : `${s.replace(" ", "T")}Z`).toISOString();
  }
  if (kind === "json") return JSON.parse(String(v));
  if (kind === "int") return Number(v);
  if (kind === "bool") return v === true || v === "true";
  return String(v);
}

async function readWithDuckDb(file: string, table: Table, reader: "parquet" | "csv") {
  const db = await DuckDBInstance.create(":memory:");
  const conn = await db.connect();
  const from =
    reader === "parquet"
      ? `read_parquet('${file}')`
      : `read_csv('${file}', header = true, all_varchar = true)`;
  const result = await conn.runAndReadAll(`SELECT * FROM ${from}`);
  const rows = result.getRowObjectsJson() as Record<string, unknown>[];
  conn.closeSync();
  db.closeSync();
  return rows.map((r) => Object.fromEntries(table.columns.map((c) => [c.name, fromDuck(r[c.name], c.kind)])));
}

describe("storytrail export", () => {
  let run: DemoWebCrawl;
  let dataset: Dataset;
  let tables: Table[];
  const out = mkdtempSync(join(tmpdir(), "storytrail-export-"));

  beforeAll(async () => {
    run = await crawlDemoWeb("export");
    dataset = await buildDataset(run.source);
    tables = datasetTables(dataset);
    for (const t of tables)
      for (const f of exportFormats) writeFileSync(join(out, `${t.name}.${f}`), encodeTable(t, f));
  });

  afterAll(async () => {
    await run?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it("has one row per stored article and one per story, each wire story with its outlets in order of pick-up", async () => {
    const stored = await run.runtime.items("articles");
    expect(dataset.articles.map((a) => a.article_id).sort()).toEqual(
      stored.map((a) => String(a.article_id)).sort(),
    );
    expect(dataset.articles.every((a) => a.story_id !== null)).toBe(true);
    for (const expected of run.web.syndicated) {
      const story = dataset.stories.find((s) =>
        s.outlets.some((o) => o.copies.some((c) => c.url === expected.urls[0])),
      );
      expect(story, expected.headline).toBeDefined();
      expect(story!.outlets.flatMap((o) => o.copies.map((c) => c.url))).toEqual(expected.urls);
      expect(story!.outlet_count).toBe(expected.urls.length);
      expect(story!.outlets[0]).toMatchObject({ publication: "Continental Wire", delay_seconds: 0 });
      expect(story!.seconds_to_2_outlets).toBe(story!.outlets[1]!.delay_seconds);
      expect(story!.spread_seconds).toBe(story!.outlets.at(-1)!.delay_seconds);
      expect(story!.first_published_at).toBe(story!.outlets[0]!.carried_at);
      expect(story!.outlets.every((o) => o.source_id !== null)).toBe(true);
    }
    expect(dataset.stories.filter((s) => s.outlet_count > 1)).toHaveLength(run.web.syndicated.length);
    expect(dataset.stories.map((s) => s.outlet_count)).toEqual(
      [...dataset.stories.map((s) => s.outlet_count)].sort((a, b) => b - a),
    );
  });

  it("writes JSONL, CSV and Parquet with the same base names; DuckDB reads the Parquet and CSV rows equal to the JSONL", async () => {
    for (const t of tables) {
      const jsonl = readJsonl(join(out, `${t.name}.jsonl`));
      expect(jsonl).toHaveLength(t.rows.length);
      // One day of the demo web revises no page: its revisions table is empty, and still read back
      // (test/cli/tail.test.ts exports a page revised between two crawls).
      if (t.name !== "revisions") expect(jsonl.length).toBeGreaterThan(0);
      expect(await readWithDuckDb(join(out, `${t.name}.parquet`), t, "parquet")).toEqual(jsonl);
      expect(await readWithDuckDb(join(out, `${t.name}.csv`), t, "csv")).toEqual(jsonl);
    }
  });

  it("exports a deployed stack's DynamoDB export files (--from-s3-export) to the same rows", async () => {
    const exportDir = join(out, "s3-export");
    for (const table of ["clusters", "articles"] as const) {
      const items = await run.runtime.items(table);
      const dir = join(exportDir, table, "AWSDynamoDB", "01234567890123-abcdef12", "data");
      mkdirSync(dir, { recursive: true });
      // A DynamoDB export spells binary (the version 3 body) as base64 text.
      // (The holder's own value: a Buffer has already become {type, data} by toJSON.)
      const base64 = function (this: Record<string, unknown>, k: string, v: unknown) {
        const own = this[k];
        return own instanceof Uint8Array ? Buffer.from(own).toString("base64") : v;
      };
      const lines = items.map((i) =>
        JSON.stringify({ Item: marshall(i, { removeUndefinedValues: true }) }, base64),
      );
      writeFileSync(join(dir, "part-0.json.gz"), gzipSync(`${lines.join("\n")}\n`));
    }
    const cliOut = join(out, "cli");
    const r = spawnSync(
      process.execPath,
      [
        join(repo, "bin/storytrail.js"),
        "export",
        "--from-s3-export",
        exportDir,
        "--format",
        "jsonl,csv,parquet",
        "--out",
        cliOut,
      ],
      { cwd: repo, encoding: "utf8", timeout: 120_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    for (const t of tables) {
      expect(readFileSync(join(cliOut, `${t.name}.jsonl`), "utf8")).toBe(
        readFileSync(join(out, `${t.name}.jsonl`), "utf8"),
      );
      expect(r.stdout).toContain(`${t.name}.parquet: ${t.rows.length} ${t.name}`);
    }
  });

  it("refuses an unknown format and a data directory without tables, saying what to do", () => {
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), "export", ...args], {
        cwd: repo,
        encoding: "utf8",
      });
    const bad = cli(["--format", "jsonl,xlsx", "--out", out]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain(
      '--format must be one or more of jsonl, csv, parquet (comma-separated), got "xlsx"',
    );
    const empty = cli(["--data-dir", join(out, "nothing-here"), "--out", out]);
    expect(empty.status).not.toBe(0);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain("no folder");
  });
});
