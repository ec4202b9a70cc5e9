/**
 * A generated news web on loopback for the pipeline benchmark: `outlets` publications on hosts
 * 127.0.1.1, 127.0.1.2, … (distinct hosts: own robots.txt, own pacing, own FIFO group), each with
 * robots.txt pointing at a sitemap of `articlesPerOutlet` article pages. About a third of the pages
 * are syndicated copies of another outlet's story (possibly truncated or with a byline), so dedup
 * has clusters to build. Pages carry the boilerplate of a real article page (navigation, JSON-LD,
 * meta tags, related links, scripts, footer). Deterministic for the same arguments; all pages are
 * built before the servers start, so serving costs next to nothing.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { syntheticArticles } from "./synthetic-articles";

export interface NewsWebOptions {
  readonly outlets: number;
  readonly articlesPerOutlet: number;
  readonly seed?: number;
  readonly wordsPerArticle?: number;
}

export interface NewsWeb {
  /** `{ sources: [...] }` for the discover event. */
  readonly sources: { sources: Record<string, unknown>[] };
  readonly pages: number;
  readonly htmlBytes: number;
  close(): Promise<void>;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const SECTIONS = ["World", "Politics", "Business", "Technology", "Science", "Sport", "Culture", "Opinion"];

function boilerplate(publication: string, n: number): { nav: string; related: string; footer: string } {
  const nav = SECTIONS.map((s) => `<li><a href="/${s.toLowerCase()}">${s}</a></li>`).join("");
  const related = Array.from(
    { length: 8 },
    (_, i) => `<li><a href="/related/${n}-${i}">More on this story: update number ${i + 1}</a></li>`,
  ).join("");
  const footer = `<p>&copy; 2026 ${escapeHtml(publication)}. All rights reserved.</p><ul>${[
    "About us",
    "Contact",
    "Privacy",
    "Terms",
    "Advertise",
    "Careers",
  ]
    .map((l) => `<li><a href="/${l.toLowerCase().replace(/ /g, "-")}">${l}</a></li>`)
    .join("")}</ul><form><input name="email"><button>Subscribe</button></form>`;
  return { nav: `<ul class="nav">${nav}</ul>`, related: `<ul>${related}</ul>`, footer };
}

function articlePage(
  origin: string,
  publication: string,
  path: string,
  a: { title: string; text: string; ts: string },
  n: number,
): string {
  const url = `${origin}${path}`;
  const section = SECTIONS[n % SECTIONS.length]!;
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: a.title,
    datePublished: a.ts,
    articleSection: section,
    inLanguage: "en",
    publisher: { "@type": "Organization", name: publication },
    mainEntityOfPage: url,
  };
  const { nav, related, footer } = boilerplate(publication, n);
  const paragraphs = a.text
    .split("\n\n")
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join("\n");
  // Trackers and app bundles make up much of a real page's bytes.
  const script = `<script>window.dataLayer=window.dataLayer||[];${"function t(e){dataLayer.push(e)};".repeat(40)}</script>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>${escapeHtml(a.title)} | ${escapeHtml(publication)}</title>
<link rel="canonical" href="${url}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta property="og:title" content="${escapeHtml(a.title)}">
<meta property="og:type" content="article">
<meta property="article:published_time" content="${a.ts}">
<meta name="description" content="${escapeHtml(a.text.slice(0, 150))}">
<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>
${script}
</head><body>
<header><a class="logo" href="/">${escapeHtml(publication)}</a><nav>${nav}</nav></header>
<main><article>
<h1>${escapeHtml(a.title)}</h1>
<p class="byline">By Staff Reporter · <time datetime="${a.ts}">${a.ts.slice(0, 10)}</time></p>
<div class="article-body">
${paragraphs}
</div>
<aside class="related"><h2>Related</h2>${related}</aside>
</article></main>
<footer>${footer}</footer>
${script}
</body></html>`;
}

function listen(host: string, handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve(server));
  });
}

export async function startNewsWeb(opts: NewsWebOptions): Promise<NewsWeb> {
  if (opts.outlets < 1 || opts.outlets > 250) throw new Error("outlets must be 1..250");
  const hosts = Array.from({ length: opts.outlets }, (_, i) => `127.0.1.${i + 1}`);
  const routes = new Map<string, Map<string, { type: string; body: string }>>();
  const servers = await Promise.all(
    hosts.map((host) =>
      listen(host, (req, res) => {
        const key = `${(req.socket.localAddress ?? "").replace(/^::ffff:/, "")}:${req.socket.localPort}`;
        const route = routes.get(key)?.get((req.url ?? "/").split("?")[0] ?? "/");
        if (!route) {
          res.writeHead(404, { "content-type": "text/plain" }).end("not found");
          return;
        }
        res.writeHead(200, { "content-type": route.type }).end(route.body);
      }),
    ),
  );
  const origins = servers.map((s, i) => `http://${hosts[i]}:${(s.address() as AddressInfo).port}`);
  const total = opts.outlets * opts.articlesPerOutlet;
  const perOutlet = origins.map(() => new Map<string, { type: string; body: string }>());
  const locs: string[][] = origins.map(() => []);
  let htmlBytes = 0;
  let n = 0;
  // Consecutive articles go to different outlets, so a copy usually lands on another outlet.
  for (const a of syntheticArticles(total, opts.wordsPerArticle ?? 600, opts.seed ?? 7)) {
    const o = n % opts.outlets;
    const path = `/${SECTIONS[n % SECTIONS.length]!.toLowerCase()}/2026/12/${a.id}`;
    const body = articlePage(origins[o]!, `Outlet ${o + 1}`, path, a, n);
    htmlBytes += Buffer.byteLength(body);
    perOutlet[o]!.set(path, { type: "text/html; charset=utf-8", body });
    locs[o]!.push(`<url><loc>${origins[o]}${path}</loc><lastmod>${a.ts}</lastmod></url>`);
    n++;
  }
  origins.forEach((origin, o) => {
    const m = perOutlet[o]!;
    m.set("/robots.txt", {
      type: "text/plain",
      body: `User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap.xml\n`,
    });
    m.set("/sitemap.xml", {
      type: "application/xml; charset=utf-8",
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs[o]!.join("\n")}\n</urlset>`,
    });
    routes.set(origin.replace("http://", ""), m);
  });
  return {
    sources: {
      sources: origins.map((origin, o) => ({
        id: `outlet-${o + 1}`,
        publication: `Outlet ${o + 1}`,
        homepage: `${origin}/`,
        feeds: [],
        sitemaps: [],
        language: "en",
      })),
    },
    pages: total,
    htmlBytes,
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.closeAllConnections();
              s.close(() => r());
            }),
        ),
      );
    },
  };
}
