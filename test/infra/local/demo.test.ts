/**
 * `npm run demo` (`storytrail demo`): the generated news web crawled end to end shows its syndicated
 * stories with every outlet and delay, counts every broken page under its reason, writes the report,
 * and a second run on the same data directory and clock finds nothing new.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { StoryRow } from "../../../shared/export/dataset";
import { TEST_ANCHOR } from "../../support/demo-web-crawl";

const repo = resolve(import.meta.dirname, "../../..");

/** A port free on the demo web's first host; both runs use it, so the URLs are the same. */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer().listen(0, "127.0.0.10", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
    s.on("error", fail);
  });
}

describe("storytrail demo", () => {
  it("crawls ten hosts, prints the multi-outlet stories with their delays, writes the report; a second run finds nothing new", async () => {
    const dir = mkdtempSync(join(tmpdir(), "storytrail-demo-web-"));
    const args = ["demo", "--data-dir", dir, "--port", String(await freePort()), "--at", TEST_ANCHOR];
    const demo = (extra: string[]) =>
      spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), ...args, ...extra], {
        cwd: repo,
        encoding: "utf8",
        timeout: 280_000,
      });
    try {
      const first = demo(["--json"]);
      expect(first.status, first.stderr).toBe(0);
      const r = JSON.parse(first.stdout) as {
        summary: string;
        outlets: number;
        counts: Record<string, unknown>;
        stories: StoryRow[];
        report: string;
      };
      expect(r.outlets).toBe(10);
      expect(r.summary).toMatch(/^demo: served 10 outlets \(a wire service and 9 papers/);
      expect(r.counts).toMatchObject({
        failed: 5,
        pending: 0,
        dead_lettered: { fetch: 0, dedup: 0 },
        failure_reasons: { http_404: 1, http_410: 1, not_html: 1, thin_content: 1, robots_disallowed: 1 },
      });
      const multi = r.stories.filter((s) => s.outlet_count > 1);
      expect(multi.map((s) => s.outlet_count)).toEqual([10, 7, 5, 4, 3]);
      for (const s of multi) {
        expect(s.outlets[0]).toMatchObject({ publication: "Continental Wire", delay_seconds: 0 });
        expect(s.outlets.slice(1).every((o) => (o.delay_seconds ?? 0) > 0)).toBe(true);
      }
      // AMP, print and tracking variants are folded into their articles, not counted as articles.
      const articles = r.stories.reduce((n, s) => n + s.article_count, 0);
      expect(r.counts.distinct_articles).toBe(articles);
      expect(Number(r.counts.articles)).toBeGreaterThan(articles);
      expect(existsSync(r.report)).toBe(true);
      expect(readFileSync(r.report, "utf8")).toContain("<svg");

      // The same clock, the same state: nothing is new, and the table is still there to read.
      const again = demo([]);
      expect(again.status, again.stderr).toBe(0);
      expect(again.stdout).toContain(
        "stories carried by more than one outlet (delay after the first publication):",
      );
      expect(again.stdout).toMatch(/^\s+10 outlets {2}\S/m);
      expect(again.stdout).toMatch(/^\s+Continental Wire\s+first\s+http:/m);
      expect(again.stdout).toMatch(/^demo: served 10 outlets .*; claimed 0 URLs: /m);
      expect(again.stdout).toContain(`; ${r.stories.length} stories, 5 carried by 2+ outlets;`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
