/**
 * Update tracking: a URL seen before is not enqueued again, unless its sitemap lastmod moved on; the
 * re-fetch is conditional (ETag), so an unchanged page costs a 304 and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { type NewsServer, send, startNewsServer } from "../../support/news-server";
import { uniquePrefix } from "../../support/unique-prefix";

const body = Array.from({ length: 300 }, (_, i) => `word${(i * 31) % 997}`).join(" ");
const page = `<!doctype html><html lang="en"><head><title>Budget passes</title>
<meta property="article:published_time" content="2026-11-30T10:00:00Z"></head>
<body><article><h1>Budget passes</h1><p>${body}</p></article></body></html>`;

describe("update tracking across runs", () => {
  let site: NewsServer;
  let runtime: LocalRuntime;
  let lastmod = "2026-11-30T10:00:00Z";
  const conditional: string[] = [];

  beforeAll(async () => {
    site = await startNewsServer({
      "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n"),
      "/story": (req, res) => {
        if (req.headers["if-none-match"] === '"v1"') {
          conditional.push(String(req.headers["if-none-match"]));
          res.writeHead(304, { etag: '"v1"' }).end();
          return;
        }
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", etag: '"v1"' }).end(page);
      },
    });
    site.route("/sitemap.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          `<url><loc>${site.url("/story")}</loc><lastmod>${lastmod}</lastmod></url></urlset>`,
      );
    });
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("upd"),
      settings: { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true", STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
    });
  });

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  const sources = () => ({
    sources: [
      { id: "u", publication: "Update Times", homepage: site.url("/"), sitemaps: [site.url("/sitemap.xml")] },
    ],
  });

  it("fetches once, skips the unchanged URL, and re-checks it conditionally when lastmod moves on", async () => {
    const first = await runtime.discover({ sources: sources(), run_id: "day-1" });
    expect(first.enqueued).toBe(1);
    await runtime.drain();
    expect((await runtime.runCounts("day-1")).articles).toBe(1);

    const second = await runtime.discover({ sources: sources(), run_id: "day-2" });
    expect(second.sources[0]).toMatchObject({ new: 0, updated: 0 });
    expect(second.enqueued).toBe(0);

    // Changed after the last successful run (discovery only yields what changed since then).
    lastmod = new Date().toISOString();
    const third = await runtime.discover({ sources: sources(), run_id: "day-3" });
    expect(third.sources[0]).toMatchObject({ updated: 1 });
    await runtime.drain();
    expect(conditional).toEqual(['"v1"']);
    const counts = await runtime.runCounts("day-3");
    expect(counts).toMatchObject({ claimed: 1, articles: 1, failed: 0 });
    expect(await runtime.items("articles")).toHaveLength(1);
  });
});
