/** A discovery run over a large sitemap on DynamoDB Local and fauxqs: every URL claimed once, all enqueued. */
import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { FrontierTable } from "../../../shared/aws/frontier-table";
import { FetchQueueSender } from "../../../shared/aws/queue-sender";
import { SourcesTable } from "../../../shared/aws/sources-table";
import { runDiscovery } from "../../../shared/crawl/discover-run";
import { RobotsCache } from "../../../shared/discover/robots";
import { parseSources } from "../../../shared/discover/sources";
import { HttpClient } from "../../../shared/fetch/http";
import type { FetchMessage } from "../../../shared/records";
import { bigSitemap, type NewsServer, send, startNewsServer, urlset } from "../../support/news-server";
import { uniquePrefix } from "../../support/unique-prefix";

describe("runDiscovery", () => {
  let site: NewsServer;
  let runtime: LocalRuntime;
  beforeAll(async () => {
    site = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
    site.route("/big.xml", send("application/xml", bigSitemap(site.base, 600)));
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("disc"),
      settings: { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true" },
    });
  });
  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  it("claims and enqueues every URL of a 600-URL sitemap exactly once, even when run twice", async () => {
    const sources = {
      sources: [
        { id: "big", publication: "Big News", homepage: site.url("/"), sitemaps: [site.url("/big.xml")] },
      ],
    };
    const first = await runtime.discover({ sources, run_id: "r1" });
    expect(first.sources[0]).toMatchObject({ discovered: 600, new: 600, seen: 0 });
    expect(first.enqueued).toBe(600);
    const second = await runtime.discover({ sources, run_id: "r2" });
    expect(second.enqueued).toBe(0);
    const attrs = await runtime.clients.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: runtime.resources.queueUrls.fetch,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesDelayed"],
      }),
    );
    const visible = Number(attrs.Attributes?.ApproximateNumberOfMessages);
    const delayed = Number(attrs.Attributes?.ApproximateNumberOfMessagesDelayed);
    expect(visible + delayed).toBe(600);
    // One host's pages, each delayed to its own slot on the host's schedule: the first slot may be now.
    expect(delayed).toBeGreaterThanOrEqual(599);
    expect((await runtime.runCounts("r1")).claimed).toBe(600);
  });

  it("records URLs robots.txt disallows as failed at discovery, and enqueues only the rest", async () => {
    const guarded = await startNewsServer({
      "/robots.txt": send("text/plain", "User-agent: *\nDisallow: /private/\n"),
    });
    const local = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("disc-robots"),
      settings: { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true" },
    });
    try {
      const urls = ["/news/a", "/news/b", "/private/draft"].map((p) => guarded.url(p));
      guarded.route("/s.xml", send("application/xml", urlset(urls)));
      const sources = {
        sources: [
          { id: "g", publication: "Guarded", homepage: guarded.url("/"), sitemaps: [guarded.url("/s.xml")] },
        ],
      };
      const run = await local.discover({ sources, run_id: "g1" });
      expect(run.sources[0]).toMatchObject({ discovered: 3, new: 3, disallowed: 1 });
      expect(run.enqueued).toBe(2);
      expect(await local.runCounts("g1")).toMatchObject({
        claimed: 3,
        failed: 1,
        failure_reasons: { robots_disallowed: 1 },
      });
    } finally {
      await local.close();
      await guarded.close();
    }
  });

  it("one source with Crawl-delay: 3600 does not delay another source's URLs; it stops at its budget and resumes next run", async () => {
    // Another host than the fast one's (one pacer paces every source's requests by host).
    const slow = await startNewsServer(
      { "/robots.txt": send("text/plain", "User-agent: *\nCrawl-delay: 3600\n") },
      "127.0.0.2",
    );
    const fast = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
    try {
      slow.route("/s1.xml", send("application/xml", urlset([slow.url("/one"), slow.url("/two")])));
      slow.route("/s2.xml", send("application/xml", urlset([slow.url("/three")])));
      fast.route("/s.xml", send("application/xml", urlset(["/a", "/b", "/c"].map((p) => fast.url(p)))));
      const sources = parseSources([
        // The slow publisher first: run one after another, it would hold the fast one for an hour.
        {
          id: "slow",
          publication: "Slow",
          homepage: slow.url("/"),
          sitemaps: [slow.url("/s1.xml"), slow.url("/s2.xml")],
        },
        { id: "fast", publication: "Fast", homepage: fast.url("/"), sitemaps: [fast.url("/s.xml")] },
      ]);
      const { doc, sqs } = runtime.clients;
      const queue = new FetchQueueSender(sqs, runtime.resources.queueUrls.fetch);
      const sentAt = new Map<string, number>();
      const started = Date.now();
      const http = new HttpClient({ userAgent: "storytrail-test", allowPrivateAddresses: true });
      const sourceState = new SourcesTable(doc, runtime.resources.tables.sources);
      const run = await runDiscovery(sources, "stall-1", {
        http,
        robots: new RobotsCache(http, "storytrail-test"),
        frontier: new FrontierTable(doc, runtime.resources.tables.frontier),
        sourceState,
        fetchQueue: {
          send: async (batch: readonly FetchMessage[]) => {
            await queue.send(batch);
            for (const m of batch) sentAt.set(m.url, Date.now() - started);
          },
        },
        now: () => new Date(),
        // A 10 s invocation: 8 s of budget for the sources, 2 s kept to finish.
        remainingMs: () => 10_000 - (Date.now() - started),
      });
      const elapsed = Date.now() - started;
      const fastUrls = ["/a", "/b", "/c"].map((p) => fast.url(p));
      for (const u of fastUrls) expect(sentAt.get(u), u).toBeLessThan(3_000);
      expect(elapsed).toBeLessThan(10_000);
      const [slowRun, fastRun] = run.sources;
      expect(fastRun).toMatchObject({ source_id: "fast", discovered: 3, new: 3, completed: true });
      // The slow one keeps what it read before its budget ran out and says why it stopped.
      expect(slowRun).toMatchObject({ source_id: "slow", discovered: 2, new: 2, completed: false });
      expect(slowRun?.problem_reasons).toEqual({ timeout: 1 });
      expect(slow.hits.get("/s2.xml")).toBeUndefined();
      // Its last-success mark is not moved, so the next run reads it from where it was.
      expect(await sourceState.lastSuccess("slow")).toBeNull();
      expect(await sourceState.lastSuccess("fast")).not.toBeNull();
    } finally {
      await slow.close();
      await fast.close();
    }
  }, 60_000);

  it("paces every source's requests to one host as one, at the source's min_delay_ms, as fetch does", async () => {
    const shared = await startNewsServer(
      { "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") },
      "127.0.0.3",
    );
    const starts: number[] = [];
    const timed =
      (body: string) =>
      (
        req: Parameters<ReturnType<typeof send>>[0],
        res: Parameters<ReturnType<typeof send>>[1],
        server: NewsServer,
      ) => {
        starts.push(performance.now());
        send("application/xml", body)(req, res, server);
      };
    try {
      shared.route("/a.xml", timed(urlset([shared.url("/a1"), shared.url("/a2")])));
      shared.route("/b.xml", timed(urlset([shared.url("/b1")])));
      shared.route("/c.xml", timed(urlset([shared.url("/c1")])));
      // Two sources of one host, run at once: one of them asks for 400 ms between requests.
      const sources = parseSources([
        {
          id: "a",
          publication: "A",
          homepage: shared.url("/"),
          sitemaps: [shared.url("/a.xml"), shared.url("/c.xml")],
          min_delay_ms: 400,
        },
        { id: "b", publication: "B", homepage: shared.url("/"), sitemaps: [shared.url("/b.xml")] },
      ]);
      const { doc } = runtime.clients;
      const http = new HttpClient({ userAgent: "storytrail-test", allowPrivateAddresses: true });
      const run = await runDiscovery(sources, "shared-1", {
        http,
        robots: new RobotsCache(http, "storytrail-test"),
        frontier: new FrontierTable(doc, runtime.resources.tables.frontier),
        sourceState: new SourcesTable(doc, runtime.resources.tables.sources),
        fetchQueue: { send: async () => {} },
        now: () => new Date(),
        minHostDelayMs: 150,
      });
      expect(run.sources.map((x) => x.discovered)).toEqual([3, 1]);
      // Never two requests to the host closer than the deployment's minimum, whichever source sent them;
      // source a's second request at least its own 400 ms after the one before.
      starts.sort((x, y) => x - y);
      expect(starts).toHaveLength(3);
      for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(145);
      expect(starts[2]! - starts[0]!).toBeGreaterThanOrEqual(395);
    } finally {
      await shared.close();
    }
  });
});
