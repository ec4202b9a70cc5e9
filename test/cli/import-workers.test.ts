/**
 * `storytrail import` with its extraction in worker threads: the stories and counts of a real-page
 * WARC are the same with one worker and with four (pages are stored in file order whatever order the
 * workers finish in).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { importFiles } from "../../cli/commands/import";
import { LocalRuntime } from "../../infra/local/runtime";
import { liveStories } from "../support/live-stories";
import { realPageWarc } from "../support/real-page-warc";
import { uniquePrefix } from "../support/unique-prefix";

const ARCHIVED_AT = "2026-07-01T09:00:00Z";

describe("storytrail import --workers", () => {
  const runtimes: LocalRuntime[] = [];
  afterAll(async () => {
    for (const r of runtimes) await r.close();
  });

  it("gives the same stories and counts with 1 and 4 workers", async () => {
    const dir = mkdtempSync(join(tmpdir(), "storytrail-import-workers-"));
    const { warc, copies } = await realPageWarc(24, 4, ARCHIVED_AT);
    const file = join(dir, "pages.warc.gz");
    writeFileSync(file, warc);
    const results = [];
    for (const workers of [1, 4]) {
      const runtime = await LocalRuntime.start({
        endpoints: inject("endpoints"),
        prefix: uniquePrefix(`importw${workers}`),
        settings: { STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
      });
      runtimes.push(runtime);
      const summary = await importFiles(runtime, [file], {
        checkpointDir: join(dir, `checkpoints-${workers}`),
        workers,
      });
      results.push({ summary, stories: await liveStories(runtime) });
    }
    const [one, four] = results as [(typeof results)[0], (typeof results)[0]];
    expect(one.summary.errors).toBe(0);
    expect(one.stories.filter((s) => s.length === 2)).toHaveLength(copies);
    expect(four.summary).toEqual(one.summary);
    expect(four.stories).toEqual(one.stories);
  });
});
