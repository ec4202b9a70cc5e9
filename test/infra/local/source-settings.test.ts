/**
 * A source's own settings in the sources file reach fetch, not only discovery: its `partners` decide
 * the canonical URL of its pages, its `min_delay_ms` spaces the fetches to its host (Hosts table), and
 * its `timezone` names the day of its articles. The feed's date reaches fetch too, as evidence.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { articleIdFor } from "../../../shared/url/canonical-url";
import { type NewsServer, send, startNewsServer, urlset } from "../../support/news-server";
import { uniquePrefix } from "../../support/unique-prefix";

const MIN_DELAY_MS = 1000;
const words = (seed: string) => Array.from({ length: 320 }, (_, i) => `${seed}${i}`).join(" ");
const page = (title: string, head = "") =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${head}` +
  `<meta property="article:published_time" content="2026-11-30T10:00:00Z"></head>` +
  `<body><article><h1>${title}</h1><p>${words(title.slice(0, 3))}.</p></article></body></html>`;
const PATHS = ["/one", "/two"];

describe("a source's own settings in fetch", () => {
  let site: NewsServer;
  let runtime: LocalRuntime;
  const pageHits: number[] = [];

  beforeAll(async () => {
    site = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
    for (const path of PATHS) {
      // The wire copy names the partner's URL as its canonical; the others name none.
      const head = path === "/one" ? '<link rel="canonical" href="https://wire.example/story/one">' : "";
      site.route(path, (_req, res) => {
        pageHits.push(Date.now());
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(`Story ${path}`, head));
      });
    }
    site.route("/sitemap.xml", send("application/xml", urlset(PATHS.map((p) => site.url(p)))));
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("srcset"),
      // No deployment-wide partners and no deployment-wide host delay: only the source's settings act.
      settings: { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true", STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
    });
    const source = {
      id: "wire-carrier",
      publication: "Wire Carrier",
      homepage: site.url("/"),
      sitemaps: [site.url("/sitemap.xml")],
      partners: ["wire.example"],
      min_delay_ms: MIN_DELAY_MS,
    };
    await runtime.discover({ sources: { sources: [source] }, run_id: "r1" });
    await runtime.drain();
  });

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  it("keys a page by the partner's canonical URL the source allows", async () => {
    const articles = await runtime.items("articles");
    expect(articles.map((a) => a.url).sort()).toEqual(
      ["https://wire.example/story/one", site.url("/two")].sort(),
    );
    const wire = articles.find((a) => a.article_id === articleIdFor("https://wire.example/story/one"));
    expect([...(wire!.url_variants as Set<string>)]).toContain(site.url("/one"));
  });

  it("spaces the fetches to the source's host by its min_delay_ms (Hosts table)", async () => {
    expect(pageHits).toHaveLength(PATHS.length);
    // Each request reserves the host's next slot, its own start plus the interval: the reservation left
    // after the last request lies ahead of it (unpaced, it is that request's own start, already past).
    const [host] = await runtime.items("hosts");
    expect(host?.host).toBe("127.0.0.1");
    expect(Number(host?.next_at)).toBeGreaterThan(pageHits.at(-1)!);
    // The slot is reserved before the GET, whose own latency (a Frontier read, the connection) shifts the
    // arrival by up to a few hundred ms under load; the gap is the interval less that.
    expect(pageHits[1]! - pageHits[0]!).toBeGreaterThan(MIN_DELAY_MS / 2);
  });
});

describe("a source's time zone and its feed's dates in fetch", () => {
  let site: NewsServer;
  let runtime: LocalRuntime;
  const byPath = async (path: string) =>
    (await runtime.items("articles")).find((a) => a.article_id === articleIdFor(site.url(path)));
  // A day stated only as 03/04/2026: with no region in the language, read day first (3 April).
  const numeric = (title: string) =>
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
    `<p class="date">03/04/2026</p><p>${words(title.slice(0, 3))}.</p></article></body></html>`;

  beforeAll(async () => {
    site = await startNewsServer({
      "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n"),
      // 02:30 UTC on 10 March is 21:30 on 9 March in New York (EST, UTC-5).
      "/late-night": send(
        "text/html; charset=utf-8",
        page("Late night story").replace("2026-11-30T10:00:00Z", "2026-03-10T02:30:00Z"),
      ),
      "/from-feed": send("text/html; charset=utf-8", numeric("Feed story")),
      "/from-sitemap": send("text/html; charset=utf-8", numeric("Plain story")),
    });
    site.route(
      "/sitemap.xml",
      send("application/xml", urlset(["/late-night", "/from-sitemap"].map((p) => site.url(p)))),
    );
    // The feed dates its item 4 March: that settles 03/04/2026 as month first.
    site.route(
      "/feed.xml",
      send(
        "application/rss+xml",
        `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title><link>${site.url("/")}</link>` +
          `<item><title>Feed story</title><link>${site.url("/from-feed")}</link>` +
          "<pubDate>Wed, 04 Mar 2026 12:00:00 GMT</pubDate></item></channel></rss>",
      ),
    );
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("srczone"),
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: "0",
        // After 3 April: a reading still in the future would be set aside for the other one (dates.ts).
        STORYTRAIL_NOW: "2026-04-10T12:00:00Z",
      },
    });
    const source = {
      id: "ny-paper",
      publication: "New York Paper",
      homepage: site.url("/"),
      sitemaps: [site.url("/sitemap.xml")],
      feeds: [site.url("/feed.xml")],
      timezone: "America/New_York",
    };
    await runtime.discover({ sources: { sources: [source] }, run_id: "r1" });
    await runtime.drain();
  });

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  it("dates an article published at 02:30 UTC on 10 March on 9 March, the source's day", async () => {
    const a = await byPath("/late-night");
    expect([a?.published_at, a?.published_day]).toEqual(["2026-03-10T02:30:00.000Z", "2026-03-09"]);
  });

  it("reads an ambiguous 03/04/2026 as the feed dates the page (4 March); without a feed date, day first", async () => {
    expect((await byPath("/from-feed"))?.published_day).toBe("2026-03-04");
    expect((await byPath("/from-sitemap"))?.published_day).toBe("2026-04-03");
  });
});
