/**
 * `storytrail tail` on real local runs: the demo crawl, then its Clusters stream decoded; an import of
 * real pages, whose store keeps no stream, read as the stream from the start would carry its stories.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClusterStreamEvent } from "../../shared/consumer/decode-stream-record";
import { StoryView } from "../../shared/consumer/story-view";
import { realPageWarc } from "../support/real-page-warc";

const repo = resolve(import.meta.dirname, "../..");
const cli = (args: string[], timeout = 170_000) =>
  spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), ...args], {
    cwd: repo,
    encoding: "utf8",
    timeout,
  });

describe("storytrail tail", () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-tail-"));
  let crawled: { clusters: number; clustered_articles: number };

  beforeAll(() => {
    const r = cli(["crawl", "--demo", "--json", "--retry-delay", "0", "--data-dir", dir]);
    expect(r.status, r.stderr).toBe(0);
    crawled = JSON.parse(r.stdout);
  }, 180_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the run's stream as events (--json), from which the view rebuilds the run's stories", () => {
    const r = cli(["tail", "--data-dir", dir, "--once", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as ClusterStreamEvent);
    expect(events.filter((e) => e.type === "story_created").length).toBeGreaterThanOrEqual(crawled.clusters);
    const view = new StoryView();
    for (const e of events) view.apply(e);
    const stories = view.stories();
    expect(stories.length).toBe(crawled.clusters);
    expect(stories.reduce((n, s) => n + s.members.length, 0)).toBe(crawled.clustered_articles);
    expect(Math.max(...stories.map((s) => s.outlets.length))).toBe(3);
  }, 120_000);

  it("prints one readable line per event, and refuses a directory without a run", () => {
    const r = cli(["tail", "--data-dir", dir, "--once"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^story_created +c-[0-9a-f]{32} "Dock workers end nine-day port strike/m);
    const empty = cli(["tail", "--data-dir", join(dir, "nothing"), "--once"]);
    expect(empty.status).not.toBe(0);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain("no folder");
  }, 120_000);
});

describe("storytrail tail on an import's data directory", () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-tail-import-"));
  const data = join(dir, "data");
  let imported: { articles: number };
  let exported: { stories: number; members: number };

  beforeAll(async () => {
    const made = await realPageWarc(12, 3, "2026-07-01T09:00:00Z");
    writeFileSync(join(dir, "pages.warc.gz"), made.warc);
    const r = cli([
      "import",
      "--warc",
      join(dir, "pages.warc.gz"),
      "--data-dir",
      data,
      "--json",
      "--workers",
      "1",
    ]);
    expect(r.status, r.stderr).toBe(0);
    imported = JSON.parse(r.stdout);
    const e = cli(["export", "--data-dir", data, "--format", "jsonl", "--out", join(dir, "export")]);
    expect(e.status, e.stderr).toBe(0);
    const stories = readFileSync(join(dir, "export", "stories.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { article_count: number });
    exported = { stories: stories.length, members: stories.reduce((n, s) => n + s.article_count, 0) };
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the store's stories as events from which the view rebuilds what export reads, then exits", () => {
    const r = cli(["tail", "--data-dir", data, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("no stream to follow");
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as ClusterStreamEvent);
    const view = new StoryView();
    for (const e of events) view.apply(e);
    const stories = view.stories();
    expect(stories.length).toBe(exported.stories);
    expect(stories.reduce((n, s) => n + s.members.length, 0)).toBe(exported.members);
    expect(exported.members).toBe(imported.articles);
    expect(stories.some((s) => s.outlets.length === 2)).toBe(true);
  }, 120_000);

  it("prints raw INSERT records a Lambda would receive, and nothing from 'now'", () => {
    const raw = cli(["tail", "--data-dir", data, "--raw"]);
    expect(raw.status, raw.stderr).toBe(0);
    const records = raw.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { eventName: string; dynamodb: { NewImage: Record<string, unknown> } });
    expect(new Set(records.map((r) => r.eventName))).toEqual(new Set(["INSERT"]));
    expect(records[0]?.dynamodb.NewImage.cluster_id).toHaveProperty("S");
    const now = cli(["tail", "--data-dir", data, "--from", "now"]);
    expect(now.status, now.stderr).toBe(0);
    expect(now.stdout).toBe("");
  }, 120_000);
});
