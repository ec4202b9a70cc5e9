import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRobots, RobotsCache } from "../../../shared/discover/robots";
import { HttpClient } from "../../../shared/fetch/http";
import { type NewsServer, send, startNewsServer } from "../../support/news-server";

const UA = "storytrail/0.1 (+https://example.org/crawler)";
let http: HttpClient;
const servers: NewsServer[] = [];
async function site(robots?: Parameters<typeof send> | ((s: NewsServer) => void)): Promise<NewsServer> {
  const s = await startNewsServer();
  servers.push(s);
  if (typeof robots === "function") robots(s);
  else if (robots) s.route("/robots.txt", send(...robots));
  return s;
}

beforeAll(() => {
  http = new HttpClient({ userAgent: UA, allowPrivateAddresses: true });
});
afterAll(async () => {
  await http.close();
  await Promise.all(servers.map((s) => s.close()));
});

describe("parseRobots", () => {
  it("applies the group for our product token, its Crawl-delay and the Sitemap lines", () => {
    const rules = parseRobots(
      "https://example.com/robots.txt",
      "User-agent: *\nDisallow: /\n\nUser-agent: storytrail\nAllow: /news/\nDisallow: /news/drafts\nCrawl-delay: 3\n\nSitemap: https://example.com/sitemap.xml\nSitemap: /relative.xml\nSitemap: HTTPS://Example.com/news.xml\n",
      UA,
    );
    expect(rules.status).toBe("ok");
    expect(rules.isAllowed("https://example.com/news/story")).toBe(true);
    expect(rules.isAllowed("https://example.com/news/drafts/x")).toBe(false);
    // Only the most specific group applies: the * group's Disallow: / does not.
    expect(rules.isAllowed("https://example.com/other")).toBe(true);
    expect(rules.crawlDelaySeconds).toBe(3);
    expect(rules.sitemaps).toEqual(["https://example.com/sitemap.xml", "https://example.com/news.xml"]);
  });
});

describe("parseRobots: the crawler's view of a file", () => {
  const parse = (body: string) => parseRobots("https://example.com/robots.txt", body, UA);

  it("matches our product token against a group line's first word (User-Agent: StoryTrail Bot)", () => {
    const rules = parse(
      "User-agent: *\nAllow: /\n\nUser-Agent: StoryTrail Bot\nDisallow: /drafts\nCrawl-delay: 4\n",
    );
    expect(rules.isAllowed("https://example.com/drafts/1")).toBe(false);
    expect(rules.isAllowed("https://example.com/news/1")).toBe(true);
    expect(rules.crawlDelaySeconds).toBe(4);
  });

  it("honours the typos Google honours, so paths the owner meant to block stay blocked", () => {
    const rules = parse(
      "useragent: storytrail\ndisallaw: /a\ndissallow: /b\nDisallow /c\n\nSite-map: https://example.com/s.xml\n",
    );
    for (const p of ["/a", "/b", "/c"]) expect(rules.isAllowed(`https://example.com${p}/x`), p).toBe(false);
    expect(rules.isAllowed("https://example.com/d")).toBe(true);
    expect(rules.sitemaps).toEqual(["https://example.com/s.xml"]);
  });

  it("compares the URL as fetched: non-ASCII percent-encoded, %xx case-insensitive", () => {
    const rules = parse("User-agent: *\nDisallow: /café\nDisallow: /%e2%82%ac\n");
    expect(rules.isAllowed("https://example.com/café/1")).toBe(false);
    expect(rules.isAllowed("https://example.com/caf%C3%A9/1")).toBe(false);
    expect(rules.isAllowed("https://example.com/€")).toBe(false);
    expect(rules.isAllowed("https://example.com/cafe")).toBe(true);
  });

  it("leaves URLs of another origin alone", () => {
    expect(parse("User-agent: *\nDisallow: /\n").isAllowed("https://other.example/x")).toBe(true);
  });
});

describe("RobotsCache (RFC 9309 error handling)", () => {
  it("parses a served robots.txt once per origin per run", async () => {
    const s = await site();
    const robots = new RobotsCache(http, UA);
    const [a, b] = await Promise.all([robots.rulesFor(s.url("/x")), robots.rulesFor(s.url("/private/y"))]);
    expect(a).toBe(b);
    expect(a.status).toBe("ok");
    expect(a.isAllowed(s.url("/news/story"))).toBe(true);
    expect(a.isAllowed(s.url("/private/story"))).toBe(false);
    expect(a.crawlDelaySeconds).toBe(2);
    expect(a.sitemaps).toEqual([s.url("/sitemap_index.xml.gz")]);
    await robots.rulesFor(s.url("/again"));
    expect(s.hits.get("/robots.txt")).toBe(1);
    expect(s.lastHeaders.get("/robots.txt")?.["user-agent"]).toBe(UA);
  });

  it("4xx → allow all", async () => {
    for (const status of [404, 410, 401, 403]) {
      const s = await site(["text/plain", "nope", {}, status]);
      const rules = await new RobotsCache(http, UA).rulesFor(s.url("/a"));
      expect(rules.status, String(status)).toBe("allow_all");
      expect(rules.isAllowed(s.url("/private/a"))).toBe(true);
    }
  });

  it("5xx and 429 → disallow all", async () => {
    for (const status of [500, 503, 429]) {
      const s = await site(["text/plain", "down", {}, status]);
      const rules = await new RobotsCache(http, UA).rulesFor(s.url("/a"));
      expect(rules.status, String(status)).toBe("disallow_all");
      expect(rules.isAllowed(s.url("/a"))).toBe(false);
    }
  });

  it("unreachable host → disallow all", async () => {
    const s = await site();
    const url = s.url("/a");
    await s.close();
    const rules = await new RobotsCache(http, UA).rulesFor(url);
    expect(rules.status).toBe("disallow_all");
    expect(rules.detail).toContain("network_error");
  });

  it("a robots.txt that times out → disallow all", async () => {
    const s = await site((srv) => srv.route("/robots.txt", () => {}));
    const short = new HttpClient({
      userAgent: UA,
      allowPrivateAddresses: true,
      limits: { headersTimeoutMs: 200 },
    });
    const rules = await new RobotsCache(short, UA).rulesFor(s.url("/a"));
    await short.close();
    expect(rules.status).toBe("disallow_all");
  });

  it("blocked address (no allowPrivateAddresses) → disallow all", async () => {
    const s = await site();
    const strict = new HttpClient({ userAgent: UA });
    const rules = await new RobotsCache(strict, UA).rulesFor(s.url("/a"));
    await strict.close();
    expect(rules.status).toBe("disallow_all");
    expect(rules.detail).toContain("blocked_address");
  });

  it("follows a redirect for robots.txt", async () => {
    const target = await site(["text/plain", "User-agent: *\nDisallow: /moved-rules\n"]);
    const s = await site((srv) =>
      srv.route("/robots.txt", (_req, res) => {
        res.writeHead(301, { location: target.url("/robots.txt") });
        res.end();
      }),
    );
    const rules = await new RobotsCache(http, UA).rulesFor(s.url("/a"));
    expect(rules.status).toBe("ok");
    expect(rules.isAllowed(s.url("/moved-rules/x"))).toBe(false);
  });

  it("reads an oversized robots.txt up to 500 KiB and ignores the rest", async () => {
    const filler = `# ${"x".repeat(1000)}\n`.repeat(520);
    const body = `User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`;
    const s = await site(["text/plain", body]);
    const rules = await new RobotsCache(http, UA).rulesFor(s.url("/a"));
    expect(rules.status).toBe("ok");
    expect(rules.isAllowed(s.url("/early/x"))).toBe(false);
    expect(rules.isAllowed(s.url("/late/x"))).toBe(true);
  });

  it("ignores the rule the 500 KiB cap cuts in half (a cut Allow: /public/page would allow /public)", async () => {
    const head = "User-agent: *\nDisallow: /\n";
    const body = `${head}# ${"x".repeat(500 * 1024 - head.length - 12)}\nAllow: /public/page\n`;
    const s = await site(["text/plain", body]);
    const rules = await new RobotsCache(http, UA).rulesFor(s.url("/a"));
    expect(rules.status).toBe("ok");
    expect(rules.isAllowed(s.url("/public"))).toBe(false);
  });

  it("serves robots.txt with any content type (text/html from a misconfigured server)", async () => {
    const s = await site(["text/html", "User-agent: *\nDisallow: /x\n"]);
    const rules = await new RobotsCache(http, UA).rulesFor(s.url("/a"));
    expect(rules.isAllowed(s.url("/x/1"))).toBe(false);
  });

  it("a non-http URL gets disallow-all rules without a fetch", async () => {
    const rules = await new RobotsCache(http, UA).rulesFor("ftp://example.com/x");
    expect(rules.status).toBe("disallow_all");
  });
});
