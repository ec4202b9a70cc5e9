import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DiscoverOptions, discoverSource } from "../../../shared/discover/discover-source";
import { RobotsCache } from "../../../shared/discover/robots";
import type { Source } from "../../../shared/discover/sources";
import { HostPacer } from "../../../shared/fetch/host-pacer";
import { HttpClient } from "../../../shared/fetch/http";
import { type NewsServer, NOW, SITEMAP_NS, send, startNewsServer } from "../../support/news-server";

const UA = "storytrail/0.1 (+https://example.org/crawler)";
let site: NewsServer;
let http: HttpClient;

beforeAll(async () => {
  site = await startNewsServer();
  // A chain of nested indexes for the depth limit, and a wide index for the count limit.
  for (let i = 0; i < 5; i++) {
    site.route(
      `/deep/${i}.xml`,
      send(
        "application/xml",
        `<sitemapindex ${SITEMAP_NS}><sitemap><loc>${site.base}/deep/${i + 1}.xml</loc></sitemap></sitemapindex>`,
      ),
    );
  }
  site.route(
    "/deep/5.xml",
    send("application/xml", `<urlset ${SITEMAP_NS}><url><loc>${site.base}/deep/story</loc></url></urlset>`),
  );
  const wide = Array.from(
    { length: 10 },
    (_, i) => `<sitemap><loc>${site.base}/wide/${i}.xml</loc></sitemap>`,
  ).join("");
  site.route(
    "/wide/index.xml",
    send("application/xml", `<sitemapindex ${SITEMAP_NS}>${wide}</sitemapindex>`),
  );
  for (let i = 0; i < 10; i++) {
    site.route(
      `/wide/${i}.xml`,
      send(
        "application/xml",
        `<urlset ${SITEMAP_NS}><url><loc>${site.base}/wide/story-${i}</loc></url></urlset>`,
      ),
    );
  }
  http = new HttpClient({ userAgent: UA, allowPrivateAddresses: true });
});
afterAll(async () => {
  await http.close();
  await site.close();
});

function source(over: Partial<Source>): Source {
  return {
    id: "example",
    publication: "Example News",
    homepage: `${site.base}/`,
    feeds: [],
    sitemaps: [],
    ...over,
  };
}

/** Options with a pacer whose sleeps are recorded rather than slept (the test site asks for Crawl-delay: 2). */
function options(over: Partial<DiscoverOptions> = {}): DiscoverOptions & { sleeps: number[] } {
  const sleeps: number[] = [];
  let t = 0;
  const pacer = new HostPacer({
    minDelayMs: 0,
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
  });
  return { http, robots: new RobotsCache(http, UA), since: null, now: NOW, pacer, sleeps, ...over };
}

describe("discoverSource on a realistic site", () => {
  const feeds = () =>
    ["/feeds/rss.xml", "/feeds/atom.xml", "/feeds/rdf.xml", "/feeds/feed.json"].map((p) => site.url(p));

  it("first run: feeds, robots Sitemap: lines, the gzip index and its children, canonical and deduplicated", async () => {
    const opts = options();
    const { urls, problems } = await discoverSource(source({ feeds: feeds() }), opts);
    const got = urls.map((u) => u.url.replace(site.base, ""));
    expect(problems).toEqual([]);
    expect(new Set(got).size).toBe(got.length);
    expect(got).toEqual(
      expect.arrayContaining([
        "/rss/est",
        "/rss/origin",
        "/rss/guid-permalink",
        "/atom/one",
        "/atom/two",
        "/rdf/eins",
        "/json/one",
        "/json/two",
        "/json/three",
        "/business/rates-hold",
        "/world/summit-ends",
        "/fr/culture/expo",
        "/archive/old-story",
        "/archive/no-lastmod",
        "/2019/old",
      ]),
    );
    expect(got).not.toContain("/sport/final"); // news item older than newsMaxAgeDays
    expect(got).toHaveLength(22);
    const rates = urls.find((u) => u.url.endsWith("/business/rates-hold"));
    expect(rates).toMatchObject({
      title: "Central bank holds rates & signals patience",
      language: "en",
      discovered_from: site.url("/sitemaps/news.xml"),
    });
    expect(rates?.published_at).toMatch(/^2026-12-02T09:00:00/);
    const noZone = urls.find((u) => u.url.endsWith("/rss/nozone"));
    expect(noZone?.published_at).toBeNull(); // no timezone: never guessed
    expect(noZone?.lastmod).toBe("2026-12-02T10:00:00.000Z");
    // The index lists itself: fetched once.
    expect(site.hits.get("/sitemap_index.xml.gz")).toBe(1);
    // Crawl-delay: 2 from robots.txt paced every request after the first.
    expect(opts.sleeps.length).toBeGreaterThan(4);
    expect(opts.sleeps.every((ms) => ms === 2000)).toBe(true);
  });

  it("later run with re-checks: an item dated by its publication alone is listed again near a step's due time", async () => {
    // The news sitemap dates /world/summit-ends by publication alone, 22 h before NOW; /archive/old-story
    // has a lastmod of its own.
    const later = (recheckHours: number[]) =>
      discoverSource(
        source({ feeds: feeds() }),
        options({ since: new Date("2026-12-02T06:00:00Z"), recheckHours }),
      ).then(({ urls }) => urls.map((u) => u.url.replace(site.base, "")));
    // A 17 h step fell due 5 h ago, within its listing window since the last run.
    const due = await later([17]);
    expect(due).toContain("/world/summit-ends");
    expect(due).not.toContain("/archive/old-story");
    // A 1 h step fell due 21 h ago: its window closed before the last run.
    expect(await later([1])).not.toContain("/world/summit-ends");
  });

  it("later run: only what changed since the last successful run", async () => {
    const { urls } = await discoverSource(
      source({ feeds: feeds() }),
      options({ since: new Date("2026-12-02T06:00:00Z") }),
    );
    const got = urls.map((u) => u.url.replace(site.base, ""));
    expect(got).toEqual(
      expect.arrayContaining([
        "/business/rates-hold",
        "/fr/culture/expo",
        "/archive/updated-story",
        "/archive/no-lastmod",
        "/rss/noweekday",
        "/rss/nozone",
        "/rss/junk",
        "/atom/one",
        "/rdf/eins",
        "/json/two",
        "/json/three",
      ]),
    );
    for (const old of [
      "/world/summit-ends",
      "/archive/old-story",
      "/rss/est",
      "/atom/two",
      "/rdf/zwei",
      "/2019/old",
    ]) {
      expect(got, old).not.toContain(old);
    }
  });

  it("robots.txt disallowing a sitemap or feed is a robots_disallowed problem, without a fetch", async () => {
    const { urls, problems } = await discoverSource(
      source({ sitemaps: [site.url("/private/sitemap.xml")] }),
      options({ robots: new RobotsCache(http, UA) }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({ url: site.url("/private/sitemap.xml"), reason: "robots_disallowed" }),
    );
    expect(site.hits.get("/private/sitemap.xml")).toBeUndefined();
    expect(urls.length).toBeGreaterThan(0); // the robots.txt sitemaps still count
  });

  it("limits: depth, number of sitemaps, number of URLs", async () => {
    const deep = await discoverSource(
      source({ homepage: `${site.base}/`, sitemaps: [site.url("/deep/0.xml")] }),
      options({ limits: { maxSitemapDepth: 2 } }),
    );
    expect(deep.problems).toContainEqual(
      expect.objectContaining({ url: site.url("/deep/2.xml"), reason: "too_large" }),
    );
    expect(deep.urls.map((u) => u.url)).not.toContain(site.url("/deep/story"));

    const wide = await discoverSource(
      source({ sitemaps: [site.url("/wide/index.xml")] }),
      options({ limits: { maxSitemaps: 4 } }),
    );
    expect(wide.problems).toContainEqual(
      expect.objectContaining({ reason: "too_large", detail: expect.stringContaining("sitemap limit of 4") }),
    );
    // 4 fetches: the wide index, the robots.txt index, then 2 of the 10 children.
    expect(wide.urls.filter((u) => u.url.includes("/wide/story-"))).toHaveLength(2);

    const capped = await discoverSource(
      source({ feeds: [site.url("/feeds/rss.xml")] }),
      options({ limits: { maxUrls: 5, maxFeedItems: 3 } }),
    );
    expect(capped.urls.length).toBeLessThanOrEqual(5);
    expect(capped.problems).toContainEqual(
      expect.objectContaining({ reason: "too_large", detail: expect.stringContaining("read the first 3") }),
    );
  });
});

describe("discoverSource: hostile inputs", () => {
  const run = (over: Partial<Source>, opts: Partial<DiscoverOptions> = {}) =>
    discoverSource(source({ homepage: `${site.base}/hostile/`, ...over }), options(opts));

  it("billion laughs feed → parsed with entities unexpanded (bounded), its one item kept", async () => {
    const { urls, problems } = await run({
      feeds: [site.url("/hostile/billion-laughs.xml")],
      allowed_hosts: ["example.com"],
    });
    expect(problems).toEqual([
      expect.objectContaining({ reason: "parse_error", detail: expect.stringContaining("never expanded") }),
    ]);
    expect(urls.map((u) => u.url)).toContain("https://example.com/laughs");
  });

  it("broken XML sitemap → the entries before the break are kept", async () => {
    const { urls, problems } = await run({
      sitemaps: [site.url("/hostile/broken.xml")],
      allowed_hosts: ["example.com"],
    });
    expect(problems).toEqual([
      expect.objectContaining({ reason: "parse_error", detail: expect.stringContaining("truncated") }),
    ]);
    expect(urls.map((u) => u.url)).toContain("https://example.com/a");
  });

  it("not XML at all → parse_error", async () => {
    const { problems } = await run({ sitemaps: [site.url("/hostile/not-xml.xml")] });
    expect(problems).toContainEqual(expect.objectContaining({ reason: "parse_error" }));
  });

  it("wrong content type for a feed → not_html", async () => {
    const { problems } = await run({ feeds: [site.url("/hostile/image"), site.url("/hostile/pdf-as-feed")] });
    expect(problems.map((p) => p.reason)).toEqual(expect.arrayContaining(["not_html", "not_html"]));
  });

  it("feed redirecting to the metadata address → blocked_address; redirect loop → redirect_loop", async () => {
    const { problems } = await run({
      feeds: [site.url("/hostile/redirect-metadata")],
      sitemaps: [site.url("/hostile/redirect-loop-a")],
    });
    expect(problems).toContainEqual(
      expect.objectContaining({ url: site.url("/hostile/redirect-metadata"), reason: "blocked_address" }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({ url: site.url("/hostile/redirect-loop-a"), reason: "redirect_loop" }),
    );
  });

  it("slow-drip feed → timeout", async () => {
    const short = new HttpClient({
      userAgent: UA,
      allowPrivateAddresses: true,
      limits: { totalTimeoutMs: 300 },
    });
    const { problems } = await run(
      { feeds: [site.url("/hostile/slow-drip")] },
      { http: short, robots: new RobotsCache(http, UA) },
    );
    await short.close();
    expect(problems).toContainEqual(expect.objectContaining({ reason: "timeout" }));
  });

  it("a 50,000-URL sitemap → all 50,000 URLs; with maxUrls 1,000 → 1,000 and a too_large problem", async () => {
    const all = await run(
      { sitemaps: [site.url("/hostile/big-sitemap.xml")] },
      { limits: { maxUrls: 100_000 } },
    );
    expect(all.urls.filter((u) => u.url.includes("/big/story-"))).toHaveLength(50_000);
    expect(all.problems, JSON.stringify(all.problems)).toEqual([]);
    const capped = await run(
      { sitemaps: [site.url("/hostile/big-sitemap.xml")] },
      { limits: { maxUrls: 1_000 } },
    );
    expect(capped.urls).toHaveLength(1_000);
    expect(capped.problems).toContainEqual(
      expect.objectContaining({
        reason: "too_large",
        detail: expect.stringContaining("URL limit of 1000 reached"),
      }),
    );
  });

  it("robots.txt answering 503 → every feed and sitemap is robots_unavailable (not robots_disallowed)", async () => {
    const down = await startNewsServer({ "/robots.txt": send("text/plain", "down", {}, 503) });
    try {
      const { urls, problems } = await discoverSource(
        {
          id: "down",
          publication: "Down",
          homepage: `${down.base}/`,
          feeds: [down.url("/feeds/rss.xml")],
          sitemaps: [down.url("/sitemaps/news.xml")],
        },
        options(),
      );
      expect(urls).toEqual([]);
      expect(problems.map((p) => p.reason)).toEqual(["robots_unavailable", "robots_unavailable"]);
      expect(problems[0]?.detail).toContain("http_5xx");
      expect(down.hits.get("/feeds/rss.xml")).toBeUndefined();
    } finally {
      await down.close();
    }
  });

  it("a source on a refused address or an unknown host is recorded for that cause, not as robots_disallowed", async () => {
    const closed = new HttpClient({ userAgent: UA }); // loopback not allowed
    const refused = await discoverSource(
      {
        id: "loop",
        publication: "Loop",
        homepage: `${site.base}/`,
        feeds: [],
        sitemaps: [site.url("/s.xml")],
      },
      { ...options(), http: closed, robots: new RobotsCache(closed, UA) },
    );
    expect(refused.problems.map((p) => p.reason)).toEqual(["blocked_address"]);
    const unknown = await discoverSource(
      {
        id: "nx",
        publication: "Nowhere",
        homepage: "http://storytrail-test.invalid/",
        feeds: [],
        sitemaps: ["http://storytrail-test.invalid/s.xml"],
      },
      { ...options(), http: closed, robots: new RobotsCache(closed, UA) },
    );
    expect(unknown.problems.map((p) => p.reason)).toEqual(["network_error"]);
  });

  it("invalid URLs in a sitemap are reported, not enqueued", async () => {
    const bad = await startNewsServer({
      "/robots.txt": send("text/plain", ""),
      "/s.xml": send(
        "application/xml",
        `<urlset ${SITEMAP_NS}><url><loc>javascript:alert(1)</loc></url><url><loc>http://[bad</loc></url><url><loc>/relative/ok</loc></url></urlset>`,
      ),
    });
    try {
      const { urls, problems } = await discoverSource(
        { id: "bad", publication: "Bad", homepage: `${bad.base}/`, feeds: [], sitemaps: [bad.url("/s.xml")] },
        options(),
      );
      expect(urls.map((u) => u.url)).toEqual([bad.url("/relative/ok")]);
      expect(problems.map((p) => p.reason)).toEqual(["invalid_url", "invalid_url"]);
    } finally {
      await bad.close();
    }
  });
});
