/**
 * Nothing is lost: every URL a run claims ends as an article, a recorded failure with its reason,
 * or a DLQ message; malformed messages land in the DLQ; a message handled twice changes nothing.
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { MAX_FETCH_ATTEMPTS } from "../../../shared/crawl/fetch-attempt";
import { articleIdFor } from "../../../shared/url/canonical-url";
import { type NewsServer, send, startNewsServer, urlset } from "../../support/news-server";
import { uniquePrefix } from "../../support/unique-prefix";

const words = (n: number, seed: string) =>
  Array.from({ length: n }, (_, i) => `${seed}${(i * 7919) % 1000}`).join(" ");

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title>
<meta property="article:published_time" content="2026-11-30T10:00:00Z"></head>
<body><article><h1>${title}</h1><p>${body}</p></article></body></html>`;

describe("failure paths of a local run", () => {
  let site: NewsServer;
  let runtime: LocalRuntime;
  let attemptsOn500 = 0;

  beforeAll(async () => {
    site = await startNewsServer({
      "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n"),
      "/good": send("text/html; charset=utf-8", page("A good story", words(300, "good"))),
      "/gone": send("text/html", "gone", {}, 404),
      "/thin": send("text/html; charset=utf-8", page("Thin", "Subscribe to read.")),
      "/image": send("image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47])),
      "/broken": (_req, res) => {
        attemptsOn500++;
        res.writeHead(500, { "content-type": "text/html" }).end("oops");
      },
    });
    const urls = ["/good", "/gone", "/thin", "/image", "/broken"].map((p) => site.url(p));
    site.route("/sitemap.xml", send("application/xml", urlset(urls)));
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("fail"),
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: "0",
        STORYTRAIL_RAW_SAMPLE_RATE: "0",
      },
    });
    const sources = {
      sources: [
        { id: "t", publication: "Test Times", homepage: site.url("/"), sitemaps: [site.url("/sitemap.xml")] },
      ],
    };
    await runtime.discover({ sources, run_id: "r1" });
    // A message no handler can parse: parked in the DLQ at once (no retry can read it), not dropped.
    await runtime.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: runtime.resources.queueUrls.fetch,
        MessageBody: "{not json",
      }),
    );
    await runtime.drain();
  });

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  it("records every failure with its reason and the counts add up", async () => {
    const counts = await runtime.runCounts("r1");
    expect(counts.claimed).toBe(5);
    expect(counts.articles).toBe(1);
    expect(counts.failure_reasons).toEqual({ http_404: 1, thin_content: 1, not_html: 1, http_5xx: 1 });
    expect(counts.articles + counts.failed + counts.pending).toBe(counts.claimed);
    expect(counts.pending).toBe(0);
  });

  it("retries a transient failure up to its last attempt, then parks it in the DLQ, as it does a malformed message", async () => {
    expect(attemptsOn500).toBe(MAX_FETCH_ATTEMPTS);
    expect(await runtime.deadLettered("fetch")).toBe(2);
    // The Frontier counts the attempts it gave up after.
    const failed = (await runtime.items("frontier")).find((f) => f.reason === "http_5xx");
    expect(failed).toMatchObject({ status: "failed", attempts: MAX_FETCH_ATTEMPTS });
  });

  it("keeps a raw sample of a thin page so extraction can be re-run", async () => {
    const frontier = await runtime.items("frontier");
    const thin = frontier.find((f) => f.url === site.url("/thin"));
    expect(String(thin?.detail)).toContain(`raw/${articleIdFor(site.url("/thin"))}.html.gz`);
  });

  it("handles a redelivered fetch message without changing the outcome", async () => {
    const before = await runtime.items("articles");
    const clustersBefore = await runtime.items("clusters");
    await runtime.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: runtime.resources.queueUrls.fetch,
        MessageBody: JSON.stringify({
          url: site.url("/good"),
          source_id: "t",
          publication: "Test Times",
          discovered_from: site.url("/sitemap.xml"),
          run_id: "r1",
        }),
      }),
    );
    await runtime.drain();
    const after = await runtime.items("articles");
    expect(after.length).toBe(before.length);
    const strip = (xs: Record<string, unknown>[]) =>
      xs
        .map(({ collected_at: _c, updated_at: _u, ...rest }) => rest)
        .sort((a, b) => String(a.item ?? a.article_id).localeCompare(String(b.item ?? b.article_id)));
    expect(strip(after).map((a) => [a.article_id, a.headline, a.body, a.cluster_id])).toEqual(
      strip(before).map((a) => [a.article_id, a.headline, a.body, a.cluster_id]),
    );
    const clustersAfter = await runtime.items("clusters");
    expect(clustersAfter.filter((c) => c.record_type === "member")).toHaveLength(
      clustersBefore.filter((c) => c.record_type === "member").length,
    );
  });
});

describe("a transient failure in a local run", () => {
  it("waits the retry delay before trying the page again, as Lambda waits the visibility timeout", async () => {
    const attempts: number[] = [];
    const site = await startNewsServer({
      "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n"),
      "/flaky": (_req, res) => {
        attempts.push(Date.now());
        if (attempts.length === 1) res.writeHead(503, { "content-type": "text/html" }).end("busy");
        else
          res
            .writeHead(200, { "content-type": "text/html; charset=utf-8" })
            .end(page("Back up", words(300, "up")));
      },
    });
    site.route("/sitemap.xml", send("application/xml", urlset([site.url("/flaky")])));
    const runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("retry"),
      retryDelaySeconds: 2,
      settings: { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true", STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
    });
    try {
      const sources = {
        sources: [
          {
            id: "f",
            publication: "Flaky Post",
            homepage: site.url("/"),
            sitemaps: [site.url("/sitemap.xml")],
          },
        ],
      };
      await runtime.discover({ sources, run_id: "r1" });
      await runtime.drain();
      expect(attempts.length).toBe(2);
      // SQS counts visibility in whole seconds; allow for the emulator's timer granularity.
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(1_900);
      const counts = await runtime.runCounts("r1");
      expect(counts).toMatchObject({ claimed: 1, articles: 1, failed: 0, pending: 0 });
    } finally {
      await runtime.close();
      await site.close();
    }
  });
});
