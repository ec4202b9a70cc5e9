/**
 * A source's own settings in the sources file reach fetch, not only discovery: its `partners` decide
 * the canonical URL of its pages, and its `min_delay_ms` spaces the fetches to its host (Hosts table).
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
