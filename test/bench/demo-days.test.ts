/**
 * The month-of-days runner's 3-day case (bench/demo-days.ts; the 30-day one is `npm run bench --
 * --only days --days 30`): `storytrail demo --at DAY` on three consecutive days into one folder finds
 * each day's new stories, keeps each developing story one story (its follow-ups and its update at the
 * same URL join it), fetches every page revised that day again, and after each day the lifecycle hooks
 * (bench/lifecycle-hooks.ts) check the folder. With a 1-day hot window (STORYTRAIL_HOT_DAYS=1 in the
 * children's environment) day 1's articles are archived at the end of day 2's run, expire at their
 * collected_at + 1 day, and the sweep at day 3's start removes them: the archive still holds each once.
 * Times are not asserted here (the bench compares them).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { type DayResult, freeDemoPort, runDemoDays } from "../../bench/demo-days";
import { TEST_ANCHOR } from "../support/demo-web-crawl";

it("three days into one folder with a 1-day hot window: new stories each day, developing stories one story each, revisions fetched again, day 1 archived then expired", async () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-demo-days-"));
  let rows: DayResult[];
  try {
    rows = await runDemoDays({
      days: 3,
      start: TEST_ANCHOR,
      dataDir: dir,
      port: await freeDemoPort(),
      hotDays: 1,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(rows.map((r) => r.day)).toEqual(["2026-12-02", "2026-12-03", "2026-12-04"]);
  expect(rows.map((r) => r.problems)).toEqual([[], [], []]);
  // Every pick-up of these three days is in its wire story's (the month's figure is in the bench).
  expect(rows.map((r) => r.copies.apart)).toEqual([[], [], []]);
  for (const r of rows) expect(r.copies.total).toBeGreaterThan(20);
  // The run's CPU time (the JVM's included) is read for the time check.
  for (const r of rows) expect(r.cpuSeconds).toBeGreaterThan(1);
  for (const r of rows) {
    expect(r.hooks.hotTablesHoldOnlyTheWindow).toMatchObject({ checked: true, problems: [] });
    expect(r.hooks.archiveHoldsEachArticleOnce).toMatchObject({ checked: true, problems: [] });
  }
  expect(rows.map((r) => r.newStories)).toEqual([24, 24, 24]);
  // 48 pages a day, and the wire's follow-ups: one on day 2, two on day 3. Nothing is lost or doubled.
  expect(rows.map((r) => r.articlesSoFar)).toEqual([48, 97, 147]);
  expect(rows.map((r) => r.failed)).toEqual([5, 5, 5]);
  for (const r of rows) expect(r.tables.articles).toBe(r.articles);
  // Day 1's 42 articles not re-fetched on day 2 (5 revised pages and the developing story's update moved
  // to day 2) were archived at the end of day 2's run and swept at day 3's start: 147 − 42 stay hot.
  expect(rows.map((r) => r.articles)).toEqual([48, 97, 105]);
  expect(rows[2]?.hooks.hotTablesHoldOnlyTheWindow.note).toBe(
    "105 hot articles, collected 2026-12-03 2026-12-04",
  );
  expect(rows.map((r) => r.hooks.archiveHoldsEachArticleOnce.note)).toEqual([
    "0 articles archived in 0 days, 48 of the day's pending",
    "42 articles archived in 1 days, 55 of the day's pending",
    "91 articles archived in 2 days, 56 of the day's pending",
  ]);
}, 300_000);
