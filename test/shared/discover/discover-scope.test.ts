/**
 * discoverSource over real loopback servers: entries off the source's hosts are dropped and counted
 * (sitemaps.org's same-host rule, with allowed_hosts as exceptions), damaged documents keep their valid
 * entries with the damage reported, gzip text sitemaps, index loops, and the URL cap applied while parsing.
 */
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DiscoverOptions, discoverSource } from "../../../shared/discover/discover-source";
import { RobotsCache } from "../../../shared/discover/robots";
import type { Source } from "../../../shared/discover/sources";
import { HostPacer } from "../../../shared/fetch/host-pacer";
import { HttpClient } from "../../../shared/fetch/http";
import {
  bigSitemap,
  type NewsServer,
  NOW,
  SITEMAP_NS,
  send,
  startNewsServer,
  urlset,
} from "../../support/news-server";

const UA = "storytrail/0.1 (+https://example.org/crawler)";
let site: NewsServer;
let http: HttpClient;
/** The same server reached by another host name: another host as far as the same-host rule goes. */
let other: (path: string) => string;

const xml = (body: string) => send("application/xml", body);
/** Links whose scheme is wrong before their host is: on another host, and on no host at all. */
const OTHER_SCHEMES = [
  "ftp://third-party.example/story",
  "file:///etc/passwd",
  "mailto:desk@third-party.example",
  "javascript:alert(1)",
  "data:text/html,hello",
  "gopher://third-party.example/1",
];
const index = (locs: string[]) =>
  `<sitemapindex ${SITEMAP_NS}>${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join("")}</sitemapindex>`;

beforeAll(async () => {
  site = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
  other = (path) => site.url(path).replace("127.0.0.1", "localhost");
  const own = (p: string) => site.url(p);
  site.route(
    "/mixed.xml",
    xml(
      urlset([
        own("/own/1"),
        "https://third-party.example/their-story",
        "http://169.254.169.254/latest/meta-data/",
        own("/own/2"),
      ]),
    ),
  );
  site.route("/index-offhost.xml", xml(index([own("/leaf.xml"), other("/offhost-leaf.xml")])));
  site.route("/leaf.xml", xml(urlset([own("/leaf/story")])));
  site.route("/offhost-leaf.xml", xml(urlset([other("/planted/story")])));
  site.route(
    "/feed-mixed.xml",
    send(
      "application/rss+xml",
      `<rss version="2.0"><channel><item><link>${own("/feed/own")}</link></item><item><link>${other("/feed/elsewhere")}</link></item></channel></rss>`,
    ),
  );
  site.route(
    "/schemes.xml",
    xml(urlset([own("/own/1"), ...OTHER_SCHEMES, "https://third-party.example/their-story"])),
  );
  site.route(
    "/feed-schemes.xml",
    send(
      "application/rss+xml",
      `<rss version="2.0"><channel>${[own("/feed/own"), ...OTHER_SCHEMES].map((l) => `<item><link>${l.replace(/&/g, "&amp;")}</link></item>`).join("")}</channel></rss>`,
    ),
  );
  const utf16 = (text: string) => Buffer.from(text, "utf16le"); // no BOM: appendix F's 3C 00 3F 00
  site.route(
    "/feed-utf16.xml",
    send(
      "application/rss+xml",
      utf16(
        `<?xml version="1.0" encoding="utf-16"?><rss version="2.0"><channel><item><title>Été</title><link>wide/1</link></item></channel></rss>`,
      ),
      { "content-location": "/located/" },
    ),
  );
  site.route(
    "/feed-utf16-big.xml",
    send(
      "application/rss+xml",
      utf16(
        `<rss version="2.0"><channel><item><link>${own("/big/1")}</link></item>${" ".repeat(6_000)}</channel></rss>`,
      ),
    ),
  );
  site.route(
    "/feed-located-elsewhere.xml",
    send(
      "application/atom+xml",
      `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="sub/"><entry><link href="x"/></entry><entry xml:base="/e/"><link xml:base="l/" href="y"/></entry></feed>`,
      { "content-location": "file:///etc/" },
    ),
  );
  site.route("/index-schemes.xml", xml(index([own("/leaf.xml"), "ftp://third-party.example/sitemap.xml"])));
  site.route(
    "/text-sitemap.txt.gz",
    send("application/x-gzip", zlib.gzipSync(`${own("/text/1")}\nnot a url at all\n\n${own("/text/2")}\n`)),
  );
  site.route(
    "/clipped.xml",
    xml(
      `<urlset ${SITEMAP_NS}><url><loc>${own("/clip/1")}</loc></url><url><loc>${own("/clip/2")}</loc></url><url><loc>${own("/clip/3")}</lo`,
    ),
  );
  site.route("/loop/1.xml", xml(index([own("/loop/2.xml")])));
  site.route("/loop/2.xml", xml(index([own("/loop/3.xml"), own("/loop/2.xml")])));
  site.route("/loop/3.xml", xml(index([own("/loop/1.xml"), own("/loop/leaf.xml")])));
  site.route("/loop/leaf.xml", xml(urlset([own("/loop/story")])));
  site.route("/big.xml", xml(bigSitemap(site.base, 20_000)));
  http = new HttpClient({ userAgent: UA, allowPrivateAddresses: true });
});
afterAll(async () => {
  await http.close();
  await site.close();
});

function run(over: Partial<Source>, limits: DiscoverOptions["limits"] = {}) {
  const pacer = new HostPacer({ minDelayMs: 0, now: () => 0, sleep: async () => {} });
  return discoverSource(
    { id: "scope", publication: "Scope", homepage: `${site.base}/`, feeds: [], sitemaps: [], ...over },
    { http, robots: new RobotsCache(http, UA), since: null, now: NOW, pacer, limits },
  );
}

describe("same-host entries", () => {
  it("a sitemap's entries on other hosts are dropped and counted as off_host", async () => {
    const { urls, problems } = await run({ sitemaps: [site.url("/mixed.xml")] });
    expect(urls.map((u) => u.url)).toEqual([site.url("/own/1"), site.url("/own/2")]);
    expect(problems).toEqual([
      {
        url: site.url("/mixed.xml"),
        reason: "off_host",
        detail:
          "2 entries not on the sitemap's host or the homepage's and not in allowed_hosts dropped (third-party.example, 169.254.169.254)",
      },
    ]);
  });

  it("allowed_hosts names the exceptions", async () => {
    const { urls, problems } = await run({
      sitemaps: [site.url("/mixed.xml")],
      allowed_hosts: ["third-party.example"],
    });
    expect(urls.map((u) => u.url)).toContain("https://third-party.example/their-story");
    expect(problems).toEqual([
      expect.objectContaining({ reason: "off_host", detail: expect.stringMatching(/^1 entry /) }),
    ]);
  });

  it("an index cannot hand the scope to another host: its off-host child sitemap is not fetched", async () => {
    const before = site.hits.get("/offhost-leaf.xml") ?? 0;
    const { urls, problems } = await run({ sitemaps: [site.url("/index-offhost.xml")] });
    expect(urls.map((u) => u.url)).toEqual([site.url("/leaf/story")]);
    expect(site.hits.get("/offhost-leaf.xml") ?? 0).toBe(before);
    expect(problems).toEqual([
      expect.objectContaining({ url: site.url("/index-offhost.xml"), reason: "off_host" }),
    ]);
  });

  it("a feed's entries off the feed's and the homepage's registrable domain are dropped, unless allowed", async () => {
    const dropped = await run({ feeds: [site.url("/feed-mixed.xml")] });
    expect(dropped.urls.map((u) => u.url)).toEqual([site.url("/feed/own")]);
    expect(dropped.problems).toEqual([
      expect.objectContaining({ reason: "off_host", detail: expect.stringContaining("registrable domain") }),
    ]);
    const allowed = await run({ feeds: [site.url("/feed-mixed.xml")], allowed_hosts: ["localhost"] });
    expect(allowed.urls).toHaveLength(2);
    expect(allowed.problems).toEqual([]);
  });
});

describe("the scheme is judged before the host", () => {
  const schemeProblems = (problems: { reason: string; detail: string }[]) =>
    problems.filter((p) => p.reason === "invalid_url").map((p) => p.detail);

  it("a sitemap's non-http(s) links are invalid_url, on another host or none; off_host is for http(s) only", async () => {
    const { urls, problems } = await run({ sitemaps: [site.url("/schemes.xml")] });
    expect(urls.map((u) => u.url)).toEqual([site.url("/own/1")]);
    expect(schemeProblems(problems)).toEqual([
      expect.stringContaining("scheme ftp is not http(s)"),
      expect.stringContaining("scheme file is not http(s)"),
      expect.stringContaining("scheme mailto is not http(s)"),
      expect.stringContaining("scheme javascript is not http(s)"),
      expect.stringContaining("scheme data is not http(s)"),
      expect.stringContaining("scheme gopher is not http(s)"),
    ]);
    expect(problems.filter((p) => p.reason === "off_host")).toEqual([
      expect.objectContaining({ detail: expect.stringMatching(/^1 entry .*\(third-party\.example\)$/) }),
    ]);
  });

  it("a feed's non-http(s) links are invalid_url, not off_host", async () => {
    const { urls, problems } = await run({ feeds: [site.url("/feed-schemes.xml")] });
    expect(urls.map((u) => u.url)).toEqual([site.url("/feed/own")]);
    expect(problems.map((p) => p.reason)).toEqual(Array(OTHER_SCHEMES.length).fill("invalid_url"));
    expect(problems.map((p) => p.url)).toEqual(OTHER_SCHEMES);
  });

  it("an index's ftp child sitemap is invalid_url and not fetched", async () => {
    const { urls, problems } = await run({ sitemaps: [site.url("/index-schemes.xml")] });
    expect(urls.map((u) => u.url)).toEqual([site.url("/leaf/story")]);
    expect(problems).toEqual([
      {
        url: "ftp://third-party.example/sitemap.xml",
        reason: "invalid_url",
        detail: `sitemap location: invalid URL "ftp://third-party.example/sitemap.xml": scheme ftp is not http(s)`,
      },
    ]);
  });
});

describe("feeds in UTF-16, and their base URI", () => {
  it("a UTF-16 feed without a BOM is read, its relative links resolved against Content-Location", async () => {
    const { urls, problems } = await run({ feeds: [site.url("/feed-utf16.xml")] });
    expect(problems).toEqual([]);
    expect(urls.map((u) => [u.url, u.title])).toEqual([[site.url("/located/wide/1"), "Été"]]);
  });

  it("a UTF-16 feed's bytes are counted against maxDocumentBytes before decoding", async () => {
    // ~6,100 characters in ~12,200 bytes: refused at a 10,000-byte cap, though its text would fit.
    const { urls, problems } = await run(
      { feeds: [site.url("/feed-utf16-big.xml")] },
      { maxDocumentBytes: 10_000 },
    );
    expect(urls).toEqual([]);
    expect(problems).toEqual([
      expect.objectContaining({ url: site.url("/feed-utf16-big.xml"), reason: "too_large" }),
    ]);
    const roomy = await run({ feeds: [site.url("/feed-utf16-big.xml")] }, { maxDocumentBytes: 20_000 });
    expect(roomy.urls.map((u) => u.url)).toEqual([site.url("/big/1")]);
  });

  it("xml:base nests (feed, entry, link); a Content-Location that is not http(s) is not a base", async () => {
    const { urls } = await run({ feeds: [site.url("/feed-located-elsewhere.xml")] });
    expect(urls.map((u) => u.url)).toEqual([site.url("/sub/x"), site.url("/e/l/y")]);
  });
});

describe("damaged documents keep their valid entries", () => {
  it("a gzip text sitemap with a junk line: the URLs kept, the junk counted", async () => {
    const { urls, problems } = await run({ sitemaps: [site.url("/text-sitemap.txt.gz")] });
    expect(urls.map((u) => u.url)).toEqual([site.url("/text/1"), site.url("/text/2")]);
    expect(problems).toEqual([
      expect.objectContaining({
        reason: "parse_error",
        detail: expect.stringContaining("1 line(s) that are not http(s) URLs skipped"),
      }),
    ]);
  });

  it("a sitemap cut mid-tag: the URLs before the break kept, the truncation reported", async () => {
    const { urls, problems } = await run({ sitemaps: [site.url("/clipped.xml")] });
    expect(urls.map((u) => u.url)).toEqual([site.url("/clip/1"), site.url("/clip/2")]);
    expect(problems).toEqual([
      expect.objectContaining({ reason: "parse_error", detail: expect.stringContaining("truncated") }),
    ]);
  });

  it("index loops (1 → 2 → 3 → 1, 2 → 2) are read once each", async () => {
    const { urls, problems } = await run({ sitemaps: [site.url("/loop/1.xml")] });
    expect(urls.map((u) => u.url)).toEqual([site.url("/loop/story")]);
    expect(problems).toEqual([]);
    for (const p of ["/loop/1.xml", "/loop/2.xml", "/loop/3.xml"]) expect(site.hits.get(p)).toBe(1);
  });
});

describe("the URL cap applies while parsing", () => {
  it("entries past maxUrls are counted, not built", async () => {
    const { urls, problems } = await run({ sitemaps: [site.url("/big.xml")] }, { maxUrls: 500 });
    expect(urls).toHaveLength(500);
    expect(problems).toEqual([
      expect.objectContaining({
        reason: "too_large",
        detail: "URL limit of 500 reached; 19500 more URL(s) dropped",
      }),
    ]);
  });
});
