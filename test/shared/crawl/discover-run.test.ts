/** A discovery run over a large sitemap on DynamoDB Local and fauxqs: every URL claimed once, all enqueued. */
import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
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
        AttributeNames: ["ApproximateNumberOfMessages"],
      }),
    );
    expect(Number(attrs.Attributes?.ApproximateNumberOfMessages)).toBe(600);
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
});
