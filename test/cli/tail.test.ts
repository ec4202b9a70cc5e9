/** `storytrail tail` on a real local run: the demo crawl, then its Clusters stream decoded. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClusterStreamEvent } from "../../shared/consumer/decode-stream-record";
import { StoryView } from "../../shared/consumer/story-view";

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
