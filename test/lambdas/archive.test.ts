/** The archive λ as deployed: its environment from the topology, the run's bucket on fauxqs's S3. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArchiveHandler } from "../../lambdas/archive";
import { readManifest } from "../../shared/archive/day-status";
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
});
