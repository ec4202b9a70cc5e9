/**
 * `storytrail quality` on an import's data directory: no daily quality run visits an archive, so the
 * table is made from the store's articles by day of collection (the WARC-Date), per source.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceQuality } from "../../shared/quality/quality-table";
import { realPageWarc } from "../support/real-page-warc";

const repo = resolve(import.meta.dirname, "../..");
const cli = (args: string[]) =>
  spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), ...args], {
    cwd: repo,
    encoding: "utf8",
    timeout: 170_000,
  });

describe("storytrail quality on an import's data directory", () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-quality-import-"));
  const data = join(dir, "data");
  /** Articles per source, and their words, as export reads them. */
  const bySource = new Map<string, number[]>();

  beforeAll(() => {
    return realPageWarc(12, 3, "2026-07-01T23:30:00Z").then((made) => {
      writeFileSync(join(dir, "pages.warc.gz"), made.warc);
      const r = cli(["import", "--warc", join(dir, "pages.warc.gz"), "--data-dir", data, "--workers", "1"]);
      expect(r.status, r.stderr).toBe(0);
      const e = cli(["export", "--data-dir", data, "--format", "jsonl", "--out", join(dir, "export")]);
      expect(e.status, e.stderr).toBe(0);
      for (const line of readFileSync(join(dir, "export", "articles.jsonl"), "utf8")
        .trim()
        .split("\n")) {
        const a = JSON.parse(line) as { source_id: string; word_count: number };
        bySource.set(a.source_id, [...(bySource.get(a.source_id) ?? []), a.word_count]);
      }
    });
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives each source's figures for the day its pages were archived", () => {
    const r = cli(["quality", "--data-dir", data, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const sources = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as SourceQuality);
    expect(sources.map((s) => s.source_id)).toEqual([...bySource.keys()].sort());
    for (const s of sources) {
      expect(s.history).toHaveLength(1);
      expect(s.history[0]?.day).toBe("2026-07-01");
      expect(s.history[0]?.articles).toBe(bySource.get(s.source_id)?.length);
      expect(s.findings).toEqual([]);
    }
  }, 120_000);

  it("prints the table", () => {
    const r = cli(["quality", "--data-dir", data]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^source +day +articles/);
    expect(r.stdout).toContain("2026-07-01");
  }, 120_000);
});
