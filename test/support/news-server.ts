/**
 * A loopback news site for tests: real sitemap and feed shapes plus hostile endpoints. Each server has its
 * own port, i.e. its own origin (robots.txt is per origin). Routes can be added or replaced per test.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, server: NewsServer) => void;

export interface NewsServer {
  base: string;
  url(path: string): string;
  /** Requests seen per path (with query). */
  hits: Map<string, number>;
  /** Request headers by path, last request wins. */
  lastHeaders: Map<string, http.IncomingHttpHeaders>;
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export const send =
  (contentType: string, body: string | Buffer, extra: Record<string, string> = {}, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, { "content-type": contentType, ...extra });
    res.end(body);
  };

const xml = (body: string, type = "application/xml") =>
  send(type, `<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
const redirect =
  (to: (s: NewsServer) => string, status = 302): Handler =>
  (_req, res, s) => {
    res.writeHead(status, { location: to(s) });
    res.end();
  };

export const SITEMAP_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const NEWS_NS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"';

/** Instants the fixtures are written around (tests pass NOW as `now`). */
export const NOW = new Date("2026-12-02T12:00:00Z");
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3600_000).toISOString();

export function newsSitemap(base: string): string {
  const item = (path: string, published: string, title: string, lang = "en") =>
    `<url><loc>${base}${path}</loc><news:news><news:publication><news:name>Example News</news:name>` +
    `<news:language>${lang}</news:language></news:publication><news:publication_date>${published}</news:publication_date>` +
    `<news:title>${title}</news:title></news:news></url>`;
  return `<urlset ${SITEMAP_NS} ${NEWS_NS}>
${item("/business/rates-hold/amp/?utm_source=gnews", hoursAgo(3), "Central bank holds rates &amp; signals patience")}
${item(
  "/world/summit-ends",
  hoursAgo(20)
    .replace("Z", "+02:00")
    .replace(/\.\d{3}/, ""),
  "Summit ends without deal",
)}
${item("/sport/final", "2026-11-01T10:00:00Z", "A stale story from last month")}
${item("/fr/culture/expo", hoursAgo(5), "Une exposition", "fr")}
</urlset>`;
}

function archiveSitemap(base: string): string {
  return `<urlset ${SITEMAP_NS}>
<url><loc>${base}/archive/old-story</loc><lastmod>2026-10-01</lastmod></url>
<url><loc>${base}/archive/updated-story</loc><lastmod>2026-12-02T08:00:00+00:00</lastmod></url>
<url><loc>${base}/archive/no-lastmod</loc></url>
<url><loc>${base}/private/secret-story</loc><lastmod>2026-12-02T08:00:00Z</lastmod></url>
</urlset>`;
}

export function sitemapIndex(base: string): string {
  return `<sitemapindex ${SITEMAP_NS}>
<sitemap><loc>${base}/sitemaps/news.xml</loc><lastmod>${hoursAgo(1)}</lastmod></sitemap>
<sitemap><loc>${base}/sitemaps/archive.xml.gz</loc><lastmod>${hoursAgo(4)}</lastmod></sitemap>
<sitemap><loc>${base}/sitemaps/2019.xml</loc><lastmod>2019-12-31</lastmod></sitemap>
<sitemap><loc>${base}/sitemap_index.xml.gz</loc></sitemap>
</sitemapindex>`;
}

export function atomFeed(base: string): string {
  return `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en" xml:base="${base}/">
<title type="html">Example &lt;b&gt;News&lt;/b&gt;</title>
<entry><title>Atom one</title><link rel="alternate" type="text/html" href="atom/one?ref=atom"/>
<link rel="edit" href="/edit/1"/><published>${hoursAgo(2)}</published><updated>${hoursAgo(1)}</updated></entry>
<entry><title type="html">&lt;em&gt;Atom&lt;/em&gt; two</title><link href="${base}/atom/two#comments"/><updated>2026-12-01T23:00:00-05:00</updated></entry>
</feed>`;
}

/** RSS with the dates feeds really carry: named zones, no weekday, two-digit year, no timezone, junk. */
export function rssFeed(base: string): string {
  const item = (path: string, date: string, title: string) =>
    `<item><title><![CDATA[${title}]]></title><link>${base}${path}</link><guid isPermaLink="false">id-${path}</guid><pubDate>${date}</pubDate></item>`;
  return `<rss version="2.0" xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0"><channel>
<title>Example RSS</title><link>${base}/</link><language>en-GB</language>
${item("/rss/est", "Tue, 01 Dec 2026 21:30:00 EST", "Named zone")}
${item("/rss/noweekday", "2 Dec 2026 09:15 +0100", "No weekday, no seconds")}
${item("/rss/twodigit", "Wed, 02 Dec 26 10:00:00 GMT", "Two-digit year")}
${item("/rss/nozone", "Wed, 02 Dec 2026 10:00:00", "No timezone")}
${item("/rss/junk", "yesterday-ish", "Junk date")}
<item><title>Proxied</title><link>https://feedproxy.example.org/~r/x/123</link><feedburner:origLink>${base}/rss/origin?utm_medium=rss</feedburner:origLink><pubDate>Wed, 02 Dec 2026 08:00:00 GMT</pubDate></item>
<item><title>Guid only</title><guid>${base}/rss/guid-permalink</guid></item>
</channel></rss>`;
}

export function rdfFeed(base: string): string {
  return `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="${base}/"><title>Example RDF</title><link>${base}/</link><dc:language>de</dc:language></channel>
<item rdf:about="${base}/rdf/eins"><title>Eins</title><link>${base}/rdf/eins</link><dc:date>2026-12-02T07:00:00+01:00</dc:date></item>
<item rdf:about="${base}/rdf/zwei"><title>Zwei</title><link>${base}/rdf/zwei</link><dc:date>2026-12-01T07:00:00Z</dc:date></item>
</rdf:RDF>`;
}

export function jsonFeed(base: string): string {
  return JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: "Example JSON",
    home_page_url: `${base}/`,
    language: "en",
    items: [
      { id: "1", url: `${base}/json/one`, title: "JSON one", date_published: hoursAgo(6) },
      {
        id: "2",
        url: "/json/two/",
        title: "JSON two",
        date_published: hoursAgo(30),
        date_modified: hoursAgo(2),
      },
      { id: `${base}/json/three`, title: "Id as URL" },
      { id: "4", content_text: "no url at all" },
    ],
  });
}

export const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rss version="2.0"><channel><title>&lol9;</title><item><title>&lol9;</title><link>https://example.com/laughs</link></item></channel></rss>`;

/** A plain sitemap listing `urls`. */
export function urlset(urls: readonly string[]): string {
  return `<?xml version="1.0"?><urlset ${SITEMAP_NS}>${urls.map((u) => `<url><loc>${u}</loc></url>`).join("")}</urlset>`;
}

export function bigSitemap(base: string, count: number): string {
  const parts: string[] = [`<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${SITEMAP_NS}>`];
  for (let i = 0; i < count; i++)
    parts.push(`<url><loc>${base}/big/story-${i}</loc><lastmod>2026-12-01</lastmod></url>`);
  parts.push("</urlset>");
  return parts.join("\n");
}

/** Writes one byte every `intervalMs` until the client goes away. */
const slowDrip =
  (intervalMs: number): Handler =>
  (req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.write("<html>");
    const timer = setInterval(() => res.write("."), intervalMs);
    const stop = () => clearInterval(timer);
    req.on("close", stop);
    res.on("close", stop);
  };

/** Streams 64 KiB chunks without end (no Content-Length) until the client goes away. */
const endless: Handler = (req, res) => {
  res.writeHead(200, { "content-type": "text/html" });
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let open = true;
  req.on("close", () => {
    open = false;
  });
  res.on("close", () => {
    open = false;
  });
  const pump = () => {
    while (open && res.write(chunk)) {}
    if (open) res.once("drain", pump);
  };
  res.write("<html>");
  pump();
};

let bomb: Buffer | undefined;
/** 64 MiB of spaces, ~64 KiB on the wire; built on first use and shared. */
function gzipBomb(): Buffer {
  bomb ??= zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 9 });
  return bomb;
}

function defaultRoutes(): Record<string, Handler> {
  return {
    "/robots.txt": (_req, res, s) =>
      send(
        "text/plain",
        `# test robots\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nUser-agent: otherbot\nDisallow: /\n\nSitemap: ${s.base}/sitemap_index.xml.gz\nSitemap: not a url\n`,
      )(_req, res, s),
    "/sitemap_index.xml.gz": (req, res, s) =>
      send("application/x-gzip", zlib.gzipSync(`<?xml version="1.0"?>\n${sitemapIndex(s.base)}`))(
        req,
        res,
        s,
      ),
    "/sitemaps/news.xml": (req, res, s) => xml(newsSitemap(s.base))(req, res, s),
    "/sitemaps/archive.xml.gz": (req, res, s) =>
      send("application/octet-stream", zlib.gzipSync(`<?xml version="1.0"?>\n${archiveSitemap(s.base)}`))(
        req,
        res,
        s,
      ),
    "/sitemaps/2019.xml": (req, res, s) =>
      xml(`<urlset ${SITEMAP_NS}><url><loc>${s.base}/2019/old</loc></url></urlset>`)(req, res, s),
    "/feeds/atom.xml": (req, res, s) => xml(atomFeed(s.base), "application/atom+xml")(req, res, s),
    "/feeds/rss.xml": (_req, res, s) => {
      // Served with Content-Encoding: gzip, as most feed hosts do.
      res.writeHead(200, {
        "content-type": "application/rss+xml; charset=utf-8",
        "content-encoding": "gzip",
      });
      res.end(zlib.gzipSync(rssFeed(s.base)));
    },
    "/feeds/rdf.xml": (req, res, s) => xml(rdfFeed(s.base), "application/rdf+xml")(req, res, s),
    "/feeds/feed.json": (req, res, s) => send("application/feed+json", jsonFeed(s.base))(req, res, s),
    "/article": send(
      "text/html; charset=utf-8",
      "<!doctype html><html><head><title>Article</title></head><body><p>Hello</p></body></html>",
    ),
    "/conditional": (req, res) => {
      if (
        req.headers["if-none-match"] === '"v1"' ||
        req.headers["if-modified-since"] === "Tue, 01 Dec 2026 00:00:00 GMT"
      ) {
        res.writeHead(304, { etag: '"v1"' });
        return res.end();
      }
      res.writeHead(200, {
        "content-type": "text/html",
        etag: '"v1"',
        "last-modified": "Tue, 01 Dec 2026 00:00:00 GMT",
      });
      res.end("<html><body>v1</body></html>");
    },
    "/hostile/redirect-loop-a": redirect((s) => `${s.base}/hostile/redirect-loop-b`),
    "/hostile/redirect-loop-b": redirect(() => "/hostile/redirect-loop-a", 301),
    "/hostile/redirect-metadata": redirect(() => "http://169.254.169.254/latest/meta-data/iam/"),
    "/hostile/redirect-decimal-loopback": redirect(
      (s) => `http://2130706433:${new URL(s.base).port}/article`,
    ),
    "/hostile/redirect-file": redirect(() => "file:///etc/passwd"),
    "/hostile/slow-drip": slowDrip(50),
    "/hostile/slow-headers": () => {
      // Never answers.
    },
    "/hostile/endless": endless,
    "/hostile/big-declared": send("text/html", "<html>tiny</html>", { "content-length": "17" }),
    "/hostile/gzip-bomb": (req, res, s) =>
      send("text/html", gzipBomb(), { "content-encoding": "gzip" })(req, res, s),
    "/hostile/image": send("image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    "/hostile/pdf-as-feed": send("application/pdf", "%PDF-1.4"),
    "/hostile/plain-text": send("text/plain", "just some words, not markup"),
    "/hostile/broken.xml": xml(
      `<urlset ${SITEMAP_NS}><url><loc>https://example.com/a</loc></url><url><loc>https://exa`,
    ),
    "/hostile/not-xml.xml": send("application/xml", "this is not xml at all"),
    "/hostile/billion-laughs.xml": send("application/rss+xml", BILLION_LAUGHS),
    "/hostile/big-sitemap.xml": (req, res, s) =>
      xml(bigSitemap(s.base, 50_000).replace(/^<\?xml[^>]*>\n/, ""))(req, res, s),
  };
}

/** `address`: another loopback address is another host (a pacing key), where another port is not. */
export async function startNewsServer(
  extra: Record<string, Handler> = {},
  address = "127.0.0.1",
): Promise<NewsServer> {
  const routes = new Map<string, Handler>(Object.entries({ ...defaultRoutes(), ...extra }));
  const hits = new Map<string, number>();
  const lastHeaders = new Map<string, http.IncomingHttpHeaders>();
  const sockets = new Set<import("node:net").Socket>();
  let server: NewsServer;
  const httpServer = http.createServer((req, res) => {
    const path = req.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    lastHeaders.set(path, req.headers);
    const handler = routes.get(path) ?? routes.get(path.split("?")[0] ?? path);
    if (!handler) {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<html>not found</html>");
      return;
    }
    handler(req, res, server);
  });
  httpServer.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, address, resolve));
  const base = `http://${address}:${(httpServer.address() as AddressInfo).port}`;
  server = {
    base,
    url: (path) => `${base}${path}`,
    hits,
    lastHeaders,
    route: (path, handler) => {
      routes.set(path, handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        httpServer.close(() => resolve());
      }),
  };
  return server;
}
