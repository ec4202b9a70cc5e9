/**
 * The month-of-days runner's 3-day case (bench/demo-days.ts; the 30-day one is `npm run bench --
 * --only days --days 30`): `storytrail demo --at DAY` on three consecutive days into one folder finds
 * each day's new stories, keeps each developing story one story (its follow-ups and its update at the
 * same URL join it), fetches every page revised that day again, and calls the lifecycle hooks with
 * the folder and the day. Times are not asserted here (the bench compares them).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { type DayResult, freeDemoPort, type HookVerdict, runDemoDays } from "../../bench/demo-days";
import { TEST_ANCHOR } from "../support/demo-web-crawl";

it("three days into one folder: new stories each day, developing stories one story each, revisions fetched again", async () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-demo-days-"));
  const calls: string[] = [];
  const hook =
    (name: string) =>
    async (dataDir: string, day: string): Promise<HookVerdict> => {
      calls.push(`${name} ${dataDir === dir} ${day}`);
      return { checked: false, problems: [] };
    };
  let rows: DayResult[];
  try {
    rows = await runDemoDays({
      days: 3,
      start: TEST_ANCHOR,
      dataDir: dir,
      port: await freeDemoPort(),
      hooks: {
        hotTablesHoldOnlyTheWindow: hook("hot"),
        archiveHoldsEachArticleOnce: hook("archive"),
      },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(rows.map((r) => r.day)).toEqual(["2026-12-02", "2026-12-03", "2026-12-04"]);
  expect(rows.map((r) => r.problems)).toEqual([[], [], []]);
  // 24 new stories a day (6 wire, 18 the outlets' own); follow-ups join the stories they follow.
  expect(rows.map((r) => r.stories)).toEqual([24, 48, 72]);
  expect(rows.map((r) => r.newStories)).toEqual([24, 24, 24]);
  // 48 pages a day, and the wire's follow-ups: one on day 2, two on day 3. Nothing is lost or doubled.
  expect(rows.map((r) => r.articles)).toEqual([48, 97, 147]);
  expect(rows.map((r) => r.articlesSoFar)).toEqual([48, 97, 147]);
  expect(rows.map((r) => r.failed)).toEqual([5, 5, 5]);
  for (const r of rows) expect(r.tables.articles).toBe(r.articles);
  expect(calls).toEqual(
    ["2026-12-02", "2026-12-03", "2026-12-04"].flatMap((d) => [`hot true ${d}`, `archive true ${d}`]),
  );
}, 300_000);
