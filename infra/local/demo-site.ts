/**
 * A small news web on loopback, for the demo crawl and the end-to-end test: three outlets on
 * 127.0.0.1, 127.0.0.2 and 127.0.0.3 (distinct hosts, so distinct robots.txt and pacing), one wire
 * story syndicated by all three with small edits, one unrelated story, an AMP variant and a tracking
 * URL of the same article, a sitemap, an RSS feed and a news sitemap.
 *
 * Its articles are dated on the UTC day before the run's clock (`at`): within discovery's news window
 * and never in the future, whatever the calendar says, so the crawl finds the same stories on any date.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface DemoOutlet {
  readonly id: string;
  readonly publication: string;
  readonly origin: string;
}

export interface DemoSite {
  readonly outlets: readonly DemoOutlet[];
  /** A sources file (`{ sources: [...] }`) describing the outlets. */
  readonly sources: { sources: Record<string, unknown>[] };
  /** Canonical URLs of the articles the site holds, by story. */
  readonly expected: { wire: string[]; unrelated: string[] };
  /** The UTC day (YYYY-MM-DD) its articles are dated on: the day before the clock's. */
  readonly day: string;
  close(): Promise<void>;
}

const WIRE_PARAGRAPHS = [
  "Dock workers at the country's three largest container ports voted on Tuesday to end a nine-day strike that had left hundreds of ships waiting offshore and shelves short of imported goods, union officials said.",
  "The agreement, reached after two days of talks mediated by the labour ministry, raises wages by 6.5 percent this year and a further 4 percent next year, and sets new limits on the use of automated cranes at terminals built before 2015.",
  "Port operators said the first shifts would return to work on Wednesday morning and that clearing the backlog of roughly 140 vessels could take three to four weeks. Shipping lines warned customers that delivery times would stay longer than usual until the end of the month.",
  "Retailers had urged both sides to settle as the holiday season approached. A trade group representing importers estimated that the stoppage had delayed goods worth about 2 billion dollars a day, with electronics, clothing and car parts among the hardest hit.",
  "The union's general secretary told reporters outside the ministry that members had accepted the deal by a wide margin. She said the protections against automation were the most important gain and that workers would watch closely how operators applied them.",
  "Economists said the strike was unlikely to leave a lasting mark on growth but could add a little to consumer prices in the coming months, as importers passed on the extra cost of storage, rerouted cargo and air freight.",
];

const UNRELATED_PARAGRAPHS = [
  "The city council approved a plan on Monday to plant twelve thousand trees along the river over the next five years, a project its backers say will cool the streets during summer heat waves and reduce flooding after heavy rain.",
  "Under the plan, volunteers and contractors will plant native oaks, willows and alders in parks, schoolyards and along new cycle paths. Residents will be able to request a tree outside their home through an online form that opens in the spring.",
  "Council members who opposed the measure questioned its cost, put at 18 million over the period, and asked how the young trees would be watered during dry months. The parks department said it would hire seasonal staff and install drip irrigation in the most exposed areas.",
  "Local schools will take part by growing saplings in small nurseries, and a university team will measure street temperatures before and after planting to see how much shade the new canopy provides.",
];

interface PageSpec {
  readonly path: string;
  readonly headline: string;
  readonly paragraphs: readonly string[];
  readonly published: string;
  readonly section: string;
  /** Canonical path the page declares (AMP pages point at the regular page). */
  readonly canonicalPath?: string;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function articlePage(outlet: DemoOutlet, page: PageSpec): string {
  const canonical = `${outlet.origin}${page.canonicalPath ?? page.path}`;
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: page.headline,
    datePublished: page.published,
    articleSection: page.section,
    inLanguage: "en",
    publisher: { "@type": "Organization", name: outlet.publication },
    mainEntityOfPage: canonical,
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>${escapeHtml(page.headline)} | ${escapeHtml(outlet.publication)}</title>
<link rel="canonical" href="${canonical}">
<meta property="og:title" content="${escapeHtml(page.headline)}">
<meta property="article:published_time" content="${page.published}">
<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>
</head><body>
<header><nav><a href="/">${escapeHtml(outlet.publication)}</a> <a href="/world">World</a> <a href="/city">City</a></nav></header>
<main><article>
<h1>${escapeHtml(page.headline)}</h1>
<p class="byline">By Staff Writers</p>
${page.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}
<aside class="related"><h2>Related</h2><ul><li><a href="/x">Markets close higher</a></li></ul></aside>
</article></main>
<footer><p>&copy; ${escapeHtml(outlet.publication)}. All rights reserved.</p><form><input name="email"><button>Subscribe</button></form></footer>
</body></html>`;
}

function listen(host: string, port: number, handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** A fixed port when it is free (so a second demo run finds the same URLs), else any free port. */
async function listenPreferring(host: string, port: number, handler: Parameters<typeof createServer>[1]) {
  if (port > 0) {
    try {
      return await listen(host, port, handler);
    } catch {}
  }
  return listen(host, 0, handler);
}

export interface DemoSiteOptions {
  /** Port for every outlet (each on its own loopback address); 0 picks free ports. */
  readonly port?: number;
  /** The run's clock (the functions' `now`); the articles are dated on the UTC day before it. */
  readonly at?: Date;
}

const DAY_MS = 86_400_000;

export async function startDemoSite(opts: DemoSiteOptions = {}): Promise<DemoSite> {
  const hosts = ["127.0.0.1", "127.0.0.2", "127.0.0.3"] as const;
  const names = [
    ["harbor-daily", "Harbor Daily"],
    ["valley-courier", "Valley Courier"],
    ["coastal-times", "Coastal Times"],
  ] as const;
  const routes = new Map<string, Map<string, { type: string; body: string }>>();
  const servers = await Promise.all(
    hosts.map((host) =>
      listenPreferring(host, opts.port ?? 0, (req, res) => {
        const addr = req.socket.localAddress ?? "";
        const key = `${addr.replace(/^::ffff:/, "")}:${req.socket.localPort}`;
        const path = (req.url ?? "/").split("?")[0] ?? "/";
        const route = routes.get(key)?.get(path);
        if (!route) {
          res.writeHead(404, { "content-type": "text/plain" }).end("not found");
          return;
        }
        res.writeHead(200, { "content-type": route.type }).end(route.body);
      }),
    ),
  );
  const outlets: DemoOutlet[] = servers.map((s, i) => {
    const port = (s.address() as AddressInfo).port;
    const [id, publication] = names[i]!;
    return { id, publication, origin: `http://${hosts[i]}:${port}` };
  });
  const [a, b, c] = outlets as [DemoOutlet, DemoOutlet, DemoOutlet];
  const html = "text/html; charset=utf-8";
  const xml = "application/xml; charset=utf-8";
  const robots = (sitemap?: string) =>
    `User-agent: *\nDisallow: /private/\n${sitemap ? `Sitemap: ${sitemap}\n` : ""}`;

  const day = new Date(Math.floor((opts.at ?? new Date()).getTime() / DAY_MS) * DAY_MS - DAY_MS)
    .toISOString()
    .slice(0, 10);
  const datePath = day.replaceAll("-", "/");
  /** RSS's RFC 822 form of an instant on `day`. */
  const rfc822 = (time: string) => new Date(`${day}T${time}Z`).toUTCString();
  const wire = {
    headline: "Dock workers end nine-day port strike after wage deal",
    published: `${day}T14:05:00Z`,
    section: "World",
  };
  const pagesA: PageSpec[] = [
    { path: "/world/port-strike-ends", ...wire, paragraphs: WIRE_PARAGRAPHS },
    {
      path: "/amp/world/port-strike-ends",
      ...wire,
      paragraphs: WIRE_PARAGRAPHS,
      canonicalPath: "/world/port-strike-ends",
    },
  ];
  const pagesB: PageSpec[] = [
    {
      path: `/news/${datePath}/port-strike`,
      ...wire,
      headline: `UPDATE: ${wire.headline}`,
      published: `${day}T15:20:00Z`,
      paragraphs: WIRE_PARAGRAPHS,
    },
    {
      path: "/city/river-trees-plan",
      headline: "Council backs plan to plant 12,000 trees along the river",
      published: `${day}T09:00:00Z`,
      section: "City",
      paragraphs: UNRELATED_PARAGRAPHS,
    },
  ];
  const pagesC: PageSpec[] = [
    {
      path: "/business/ports/strike-over",
      ...wire,
      published: `${day}T16:45:00+01:00`,
      section: "Business",
      paragraphs: [...WIRE_PARAGRAPHS, "Reporting by the Wire Service; editing by Coastal Times staff."],
    },
  ];

  const table = (o: DemoOutlet, pages: PageSpec[], extra: Record<string, { type: string; body: string }>) => {
    const m = new Map<string, { type: string; body: string }>();
    for (const p of pages) m.set(p.path, { type: html, body: articlePage(o, p) });
    for (const [k, v] of Object.entries(extra)) m.set(k, v);
    routes.set(o.origin.replace("http://", ""), m);
  };

  table(a, pagesA, {
    "/robots.txt": { type: "text/plain", body: robots(`${a.origin}/sitemap.xml`) },
    "/sitemap.xml": {
      type: xml,
      body: `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>${a.origin}/world/port-strike-ends</loc><lastmod>${wire.published}</lastmod></url>
<url><loc>${a.origin}/world/port-strike-ends?utm_source=newsletter&amp;utm_medium=email</loc></url>
<url><loc>${a.origin}/amp/world/port-strike-ends</loc></url>
<url><loc>${a.origin}/private/draft</loc></url>
</urlset>`,
    },
  });
  table(b, pagesB, {
    "/robots.txt": { type: "text/plain", body: robots() },
    "/feed.xml": {
      type: "application/rss+xml; charset=utf-8",
      body: `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Valley Courier</title><link>${b.origin}/</link>
<item><title>UPDATE: ${wire.headline}</title><link>${b.origin}/news/${datePath}/port-strike/?fbclid=abc123</link><pubDate>${rfc822("15:20:00")}</pubDate></item>
<item><title>Council backs plan to plant 12,000 trees along the river</title><link>${b.origin}/city/river-trees-plan#comments</link><pubDate>${rfc822("09:00:00")}</pubDate></item>
</channel></rss>`,
    },
  });
  table(c, pagesC, {
    "/robots.txt": { type: "text/plain", body: robots(`${c.origin}/news-sitemap.xml`) },
    "/news-sitemap.xml": {
      type: xml,
      body: `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
<url><loc>${c.origin}/business/ports/strike-over</loc>
<news:news><news:publication><news:name>Coastal Times</news:name><news:language>en</news:language></news:publication>
<news:publication_date>${day}T16:45:00+01:00</news:publication_date><news:title>${wire.headline}</news:title></news:news></url>
</urlset>`,
    },
  });

  return {
    outlets,
    sources: {
      sources: [
        {
          id: a.id,
          publication: a.publication,
          homepage: `${a.origin}/`,
          feeds: [],
          sitemaps: [],
          language: "en",
        },
        {
          id: b.id,
          publication: b.publication,
          homepage: `${b.origin}/`,
          feeds: [`${b.origin}/feed.xml`],
          sitemaps: [],
          language: "en",
        },
        {
          id: c.id,
          publication: c.publication,
          homepage: `${c.origin}/`,
          feeds: [],
          sitemaps: [],
          language: "en",
        },
      ],
    },
    expected: {
      wire: [
        `${a.origin}/world/port-strike-ends`,
        `${b.origin}/news/${datePath}/port-strike`,
        `${c.origin}/business/ports/strike-over`,
      ],
      unrelated: [`${b.origin}/city/river-trees-plan`],
    },
    day,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
