/**
 * Hostile pages through the fetch use case on DynamoDB Local (its real 400 KB item limit) and fauxqs:
 * every URL ends as an article or a failure recorded with its own reason, never lost, never hidden.
 */
import { randomBytes } from "node:crypto";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { ArticlesTable } from "../../../shared/aws/articles-table";
import { FrontierTable } from "../../../shared/aws/frontier-table";
import { RawSamplesBucket } from "../../../shared/aws/raw-samples";
import { articleItemBody } from "../../../shared/consumer/article-item";
import { type FetchDeps, fetchArticle } from "../../../shared/crawl/fetch-article";
import { RobotsCache } from "../../../shared/discover/robots";
import { extractArticle } from "../../../shared/extract/article";
import { FIELD_CAPS } from "../../../shared/extract/field-caps";
import { HttpClient } from "../../../shared/fetch/http";
import type { DedupMessage, FetchMessage } from "../../../shared/records";
import { articleIdFor } from "../../../shared/url/canonical-url";
import { type NewsServer, send, startNewsServer, urlset } from "../../support/news-server";
import { uniquePrefix } from "../../support/unique-prefix";

const words = (n: number, seed = "w") => Array.from({ length: n }, (_, i) => `${seed}${i}`).join(" ");
const html = "text/html; charset=utf-8";
const page = (head: string, body: string) =>
  `<!doctype html><html lang="en"><head>${head}<meta property="article:published_time" content="2026-11-30T10:00:00Z"></head><body>${body}</body></html>`;
const story = (title: string) => `<article><h1>${title}</h1><p>${words(420)}.</p></article>`;
const hugeHeadline = "Breaking ".repeat(120_000); // ~1 MB
const deepArrays = `${"[".repeat(100_000)}"x"${"]".repeat(100_000)}`;

const PAGES: Record<string, string> = {
  "/huge-headline": page(`<title>${hugeHeadline}</title>`, `<h1>${hugeHeadline}</h1><p>${words(420)}.</p>`),
  "/huge-body": page(
    "<title>Long read</title>",
    `<article><h1>Long read</h1>${Array.from({ length: 60 }, (_, i) => `<p>${words(1000, `p${i}w`)}.</p>`).join("")}</article>`,
  ),
  "/deep-divs": page(
    "<title>Deep divs</title>",
    `${story("Deep divs")}${"<div>".repeat(5000)}x${"</div>".repeat(5000)}`,
  ),
  "/deep-jsonld": page(
    `<title>Deep JSON-LD</title><script type="application/ld+json">{"@type":"NewsArticle","headline":${deepArrays}}</script>`,
    story("Deep JSON-LD"),
  ),
};

describe("hostile pages in a local run", () => {
  let site: NewsServer;
  let runtime: LocalRuntime;

  beforeAll(async () => {
    site = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
    for (const [path, body] of Object.entries(PAGES)) site.route(path, send(html, body));
    site.route("/sitemap.xml", send("application/xml", urlset(Object.keys(PAGES).map((p) => site.url(p)))));
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("hostile"),
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: "0",
        STORYTRAIL_RAW_SAMPLE_RATE: "0",
      },
    });
    const sources = {
      sources: [
        { id: "h", publication: "Hostile", homepage: site.url("/"), sitemaps: [site.url("/sitemap.xml")] },
      ],
    };
    await runtime.discover({ sources, run_id: "r1" });
    await runtime.drain();
  });

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  const article = async (path: string) => {
    const out = await runtime.clients.doc.send(
      new GetCommand({
        TableName: runtime.resources.tables.articles,
        Key: { article_id: articleIdFor(site.url(path)) },
      }),
    );
    return out.Item;
  };

  it("stores every page as an article: nothing queued, failed or dead-lettered", async () => {
    const counts = await runtime.runCounts("r1");
    expect(counts).toMatchObject({ claimed: 4, articles: 4, failed: 0, pending: 0 });
    expect(await runtime.deadLettered("fetch")).toBe(0);
  });

  it("stores a page with a 1 MB headline, the headline cut to 1,000 characters and flagged", async () => {
    const a = await article("/huge-headline");
    expect(String(a?.headline).length).toBe(FIELD_CAPS.headlineChars);
    expect(a?.truncated).toEqual(["headline"]);
  });

  it("stores a 600 KB body cut to 200,000 bytes and flagged", async () => {
    const a = await article("/huge-body");
    expect(Buffer.byteLength(articleItemBody(a!))).toBeLessThanOrEqual(FIELD_CAPS.bodyBytes);
    expect(a?.truncated).toEqual(["body"]);
  });

  it("reads a 420-word article before 5,000 nested <div>s, and one beside JSON-LD 100,000 arrays deep", async () => {
    expect(Number((await article("/deep-divs"))?.word_count)).toBeGreaterThanOrEqual(420);
    expect(Number((await article("/deep-jsonld"))?.word_count)).toBeGreaterThanOrEqual(420);
  });
});

describe("fetchArticle's failure records", () => {
  let site: NewsServer;
  let runtime: LocalRuntime;
  let deps: FetchDeps;
  const sent: DedupMessage[] = [];
  const msg = (path: string): FetchMessage => ({
    url: site.url(path),
    source_id: "f",
    publication: "Faults",
    discovered_from: site.url("/sitemap.xml"),
    run_id: "r1",
  });
  const frontierItem = async (path: string) =>
    (
      await runtime.clients.doc.send(
        new GetCommand({
          TableName: runtime.resources.tables.frontier,
          Key: { url_id: articleIdFor(site.url(path)) },
        }),
      )
    ).Item;

  beforeAll(async () => {
    site = await startNewsServer({
      "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n"),
      "/story": send(html, page("<title>A story</title>", story("A story"))),
    });
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix("faults") });
    const http = new HttpClient({ userAgent: "storytrail-test/1", allowPrivateAddresses: true });
    deps = {
      http,
      robots: new RobotsCache(http, "storytrail-test/1"),
      pacer: { wait: async () => {}, done: async () => {} },
      frontier: new FrontierTable(runtime.clients.doc, runtime.resources.tables.frontier),
      articles: new ArticlesTable(runtime.clients.doc, runtime.resources.tables.articles),
      rawSamples: new RawSamplesBucket(runtime.clients.s3, runtime.resources.buckets.raw),
      dedupQueue: { send: async (m) => void sent.push(...m) },
      now: () => new Date("2026-12-01T00:00:00Z"),
      sampleRate: 0,
    };
  });

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  it("records an extractor crash as extraction_error with its message, keeps the page, stores nothing", async () => {
    const outcome = await fetchArticle(msg("/story"), {
      ...deps,
      extract: () => {
        throw new RangeError("Maximum call stack size exceeded");
      },
    });
    expect(outcome).toMatchObject({ kind: "failed", reason: "extraction_error" });
    const f = await frontierItem("/story");
    expect(f).toMatchObject({ status: "failed", reason: "extraction_error" });
    expect(String(f?.detail)).toContain("RangeError: Maximum call stack size exceeded");
    expect(String(f?.detail)).toContain(`raw/${articleIdFor(site.url("/story"))}.html.gz`);
    expect(await deps.articles.get(articleIdFor(site.url("/story")))).toBeNull();
    expect(sent).toHaveLength(0);
  });

  it("records too_large when DynamoDB still refuses the article for its size (the net under the caps)", async () => {
    // An extraction that ignores the caps, as a future uncapped field would: 600 KB of body that
    // gzip cannot shrink below the limit (random base64: ~455 KB compressed).
    const body = randomBytes(450_000).toString("base64");
    const outcome = await fetchArticle(msg("/story"), {
      ...deps,
      extract: (input) => ({ ...extractArticle(input), body }),
    });
    expect(outcome).toMatchObject({ kind: "failed", reason: "too_large" });
    expect(await frontierItem("/story")).toMatchObject({ status: "failed", reason: "too_large" });
    expect(sent).toHaveLength(0);
  });

  it("stores the page once the extractor behaves; a write without cuts clears an earlier truncated", async () => {
    const cut = await fetchArticle(msg("/story"), {
      ...deps,
      extract: (input) => ({ ...extractArticle(input), truncated: ["body"] }),
    });
    expect(cut).toMatchObject({ kind: "article" });
    const id = articleIdFor(site.url("/story"));
    expect((await deps.articles.get(id))?.truncated).toEqual(["body"]);
    expect(await fetchArticle(msg("/story"), deps)).toMatchObject({ kind: "article" });
    expect(await frontierItem("/story")).toMatchObject({ status: "fetched", reason: null });
    expect((await deps.articles.get(id))?.truncated).toBeNull();
    expect(sent).toHaveLength(2);
  });
});
