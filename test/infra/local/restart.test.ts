/**
 * The emulators restarted in the middle of a local run: DynamoDB Local keeps its tables in the data
 * directory, the queues are saved there and restored (fauxqs keeps them in memory only), and the run
 * resumes: every page fetched once, every URL ends as an article, no article clustered twice.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulators } from "../../../infra/local/emulators";
import { restoreQueues, saveQueues } from "../../../infra/local/queue-persistence";
import { LocalRuntime } from "../../../infra/local/runtime";
import { type NewsServer, send, startNewsServer, urlset } from "../../support/news-server";
import { syntheticPage } from "../../support/synthetic-page";
import { uniquePrefix } from "../../support/unique-prefix";

const PAGES = 12;
const settings = { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true", STORYTRAIL_MIN_HOST_DELAY_MS: "0" };

describe("a local run across an emulator restart", () => {
  let site: NewsServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "storytrail-restart-"));
    site = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
    const paths = Array.from({ length: PAGES }, (_, i) => `/story/${i}`);
    for (const [i, p] of paths.entries()) site.route(p, send("text/html; charset=utf-8", syntheticPage(i)));
    site.route("/sitemap.xml", send("application/xml", urlset(paths.map((p) => site.url(p)))));
  });
  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("resumes where it stopped: nothing lost, nothing fetched or clustered twice", async () => {
    const prefix = uniquePrefix("restart");
    const dynamoPath = join(dir, "dynamodb");
    const queuesDir = join(dir, "sqs");
    const sources = {
      sources: [
        { id: "r", publication: "Restart", homepage: site.url("/"), sitemaps: [site.url("/sitemap.xml")] },
      ],
    };

    const first = await startEmulators({ dynamoPath });
    let saved = 0;
    try {
      const runtime = await LocalRuntime.start({ endpoints: first.endpoints, prefix, settings });
      const run = await runtime.discover({ sources, run_id: "restart-1" });
      expect(run.enqueued).toBe(PAGES);
      // Stop the drain a few pages in, as a signal would.
      const stop = new AbortController();
      let fetched = 0;
      await runtime.drain({
        signal: stop.signal,
        onBatch: (b) => {
          if (b.fn !== "fetch") return;
          fetched += b.received;
          if (fetched >= 4) stop.abort();
        },
      });
      saved = await saveQueues(runtime.clients.sqs, runtime.resources.queueUrls, queuesDir);
      await runtime.close();
    } finally {
      await first.stop();
    }
    expect(saved).toBeGreaterThan(0);

    const second = await startEmulators({ dynamoPath });
    try {
      const runtime = await LocalRuntime.start({ endpoints: second.endpoints, prefix, settings });
      expect(await restoreQueues(runtime.clients.sqs, runtime.resources.queueUrls, queuesDir)).toBe(saved);
      await runtime.drain();
      const counts = await runtime.runCounts("restart-1");
      expect(counts).toMatchObject({ claimed: PAGES, articles: PAGES, failed: 0, pending: 0 });
      expect(counts.distinct_articles).toBe(PAGES);
      // Every article in exactly one story, counted once.
      expect(counts.clustered_articles).toBe(PAGES);
      for (let i = 0; i < PAGES; i++) expect(site.hits.get(`/story/${i}`), `/story/${i}`).toBe(1);
      await runtime.close();
    } finally {
      await second.stop();
    }
  });
});
