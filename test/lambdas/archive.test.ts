/** The archive λ as deployed: its environment from the topology, the run's bucket on fauxqs's S3; whole days, and a day in the state machine's steps. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArchiveHandler } from "../../lambdas/archive";
import { readManifest } from "../../shared/archive/day-status";
import { manifestKey } from "../../shared/archive/layout";
import type { DayPlan } from "../../shared/archive/shard-plan";
import { S3ObjectStore } from "../../shared/aws/s3-object-store";
import { crawlDemoWeb, type DemoWebCrawl } from "../support/demo-web-crawl";

describe("archive handler", () => {
  let run: DemoWebCrawl;
  beforeAll(async () => {
    run = await crawlDemoWeb("archivefn");
  }, 240_000);
  afterAll(() => run?.close());

  it("archives yesterday and re-checks the day before, by its clock; a second run finds both current", async () => {
    // The crawl's articles were collected on 2026-12-02: the next day's run archives them.
    const handler = createArchiveHandler({
      ...run.runtime.env("archive"),
      STORYTRAIL_NOW: "2026-12-03T01:30:00Z",
    });
    const first = await handler();
    expect(first.map((o) => [o.day, o.was, o.action])).toEqual([
      ["2026-12-02", "missing", "archived"],
      ["2026-12-01", "missing", "archived"],
    ]);
    expect(first[0]?.articles).toBeGreaterThan(20);
    expect(first[1]?.articles).toBe(0);
    const store = new S3ObjectStore(run.runtime.clients.s3, run.runtime.resources.buckets.raw);
    expect((await readManifest(store, "2026-12-02"))?.marked_at).not.toBeNull();
    expect((await handler()).map((o) => o.action)).toEqual(["current", "current"]);
    await expect(handler({ days: ["2026-13-01"] })).rejects.toThrow('not a day: "2026-13-01"');
  });

  it("runs a day in the state machine's steps, one invocation each; a second plan of the day is busy", async () => {
    const handler = createArchiveHandler({
      ...run.runtime.env("archive"),
      STORYTRAIL_NOW: "2026-12-03T01:30:00Z",
    });
    const store = new S3ObjectStore(run.runtime.clients.s3, run.runtime.resources.buckets.raw);
    const day = "2026-12-02";
    // The previous test archived the day: without its manifest it is due again.
    await store.delete([manifestKey(day)]);
    expect(await handler({ step: "days" })).toMatchObject({
      days: [{ day, was: "missing" }],
      current: [{ day: "2026-12-01", action: "current" }],
    });
    const plan = (await handler({ step: "plan", day })) as DayPlan & { busy: boolean };
    expect(plan).toMatchObject({ busy: false, day, shards: [{ n: 0, from: null, to: null }] });
    expect(await handler({ step: "plan", day })).toMatchObject({ busy: true, day });
    const { runId, shards } = plan;
    for (const shard of shards) await handler({ step: "write", day, runId, shard });
    const committed = (await handler({ step: "commit", day, runId, shards: [...shards] })) as {
      articles: number;
    };
    expect(committed.articles).toBeGreaterThan(20);
    expect((await readManifest(store, day))?.marked_at).toBeNull();
    for (const shard of shards) await handler({ step: "mark", day, runId, shard });
    expect(await handler({ step: "finish", day, runId, was: "missing" })).toMatchObject({
      day,
      was: "missing",
      action: "archived",
      articles: committed.articles,
    });
    expect((await readManifest(store, day))?.marked_at).not.toBeNull();
    expect(await store.list("dataset/_work/")).toEqual([]);
    // The finish released the lease; the failure path's release does too.
    const next = (await handler({ step: "plan", day })) as DayPlan & { busy: boolean };
    expect(next.busy).toBe(false);
    await handler({ step: "release", day, runId: next.runId });
    expect(await handler({ step: "plan", day })).toMatchObject({ busy: false });
    await expect(handler({ step: "write", day } as never)).rejects.toThrow(/not an archive step \(runId: /);
  });
});
