/**
 * The demo web's content, generated from one seed: wire stories, which outlets pick each up and how
 * late, the outlets' own stories, and every document each host serves (pages, AMP and print
 * renderings, sitemaps plain, gzip, news and index, RSS and Atom feeds, robots.txt, broken pages).
 * All times count back from `anchor`, so two runs with the same anchor serve identical bytes (and
 * identical lastmods: a second crawl finds nothing new).
 */
import { gzipSync } from "node:zlib";
import { atom, type Listing, newsSitemap, robots, rss, sitemap, sitemapIndex } from "./discovery-files";
import { OUTLETS, type OutletSpec, WIRE } from "./outlets";
import { renderArticle } from "./page-templates";
import { Prng } from "./prng";
import { editForOutlet, generateStory } from "./story-text";

const DEMO_SEED = 20_261_202;

export interface Route {
  readonly status: number;
  readonly type: string;
  readonly body: string | Buffer;
  /** Answers 503 to the first request, then this route (a page that fails for a moment). */
  readonly failFirst?: boolean;
}

export interface ExpectedStory {
  readonly headline: string;
  /** Canonical URL of each copy: the wire's first, then the outlets' in order of publication. */
  readonly urls: readonly string[];
}

export interface NewsWeb {
  /** Origin per outlet id (the wire included). */
  readonly routes: Map<string, Map<string, Route>>;
  readonly sources: { sources: Record<string, unknown>[] };
  /** Wire stories carried by more than one outlet. */
  readonly syndicated: readonly ExpectedStory[];
  /** What the broken and hidden URLs must fail with, by reason. */
  readonly failures: Readonly<Record<string, number>>;
}

const HTML = "text/html; charset=utf-8";
const XML = "application/xml; charset=utf-8";

const slugOf = (headline: string) =>
  headline
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);

/** How many outlets pick up each wire story, in order (the last one stays on the wire alone). */
const PICKUPS = [9, 6, 4, 3, 2, 0];

interface Published extends Listing {
  readonly path: string;
}

export function buildNewsWeb(origins: ReadonlyMap<string, string>, anchor: Date): NewsWeb {
  const rng = new Prng(DEMO_SEED);
  const at = (minutesBefore: number) =>
    new Date(anchor.getTime() - Math.round(minutesBefore) * 60_000).toISOString().replace(/\.000Z$/, "Z");
  const routes = new Map<string, Map<string, Route>>();
  const listings = new Map<string, Published[]>();
  const origin = (o: OutletSpec) => origins.get(o.id)!;
  const routesOf = (o: OutletSpec) => {
    let m = routes.get(o.id);
    if (!m) {
      m = new Map();
      routes.set(o.id, m);
    }
    return m;
  };
  const publish = (
    o: OutletSpec,
    page: {
      headline: string;
      paragraphs: readonly string[];
      section: string;
      published: string;
      summary?: string;
    },
    opts: { free?: boolean; slug?: string } = {},
  ): Published => {
    const list = listings.get(o.id) ?? [];
    listings.set(o.id, list);
    const path = o.path(opts.slug ?? slugOf(page.headline), page.published, page.section, list.length);
    const url = `${origin(o)}${path}`;
    const content = {
      ...page,
      publication: o.publication,
      canonical: url,
      author: o.author,
      ...(opts.free === false ? { free: false } : {}),
    };
    routesOf(o).set(path, { status: 200, type: HTML, body: renderArticle(o.style, content) });
    if (o.announce === "sitemap-index")
      routesOf(o).set(`/amp${path}`, { status: 200, type: HTML, body: renderArticle("amp", content) });
    const item = {
      path,
      url,
      headline: page.headline,
      published: page.published,
      ...(page.summary ? { summary: page.summary } : {}),
    };
    list.push(item);
    return item;
  };

  // Wire stories, each picked up by the outlets that are quickest for it.
  const syndicated: ExpectedStory[] = [];
  PICKUPS.forEach((pickups, i) => {
    const story = generateStory(rng);
    const wirePublished = at(22 * 60 - i * 170 - rng.int(0, 40));
    const wire = publish(WIRE, { ...story, published: wirePublished });
    const copies = rng.sample(OUTLETS, pickups).map((o) => {
      const delay = o.pickupMinutes * (0.6 + rng.next() * 0.8);
      const edit = editForOutlet(story, rng, o.publication);
      const published = new Date(Date.parse(wirePublished) + Math.round(delay) * 60_000)
        .toISOString()
        .replace(/\.000Z$/, "Z");
      // One wire copy behind Ironwood's paywall: flagged, never worked around.
      const free = !(o.id === "ironwood-times" && i === 1);
      return publish(o, { ...edit, section: story.section, published, summary: story.summary }, { free });
    });
    if (copies.length > 0)
      syndicated.push({
        headline: story.headline,
        urls: [wire.url, ...copies.sort((a, b) => a.published.localeCompare(b.published)).map((c) => c.url)],
      });
  });
  // Each outlet's own stories.
  for (const o of OUTLETS) {
    for (let k = 0; k < 2; k++) {
      const story = generateStory(rng);
      const free = !(o.id === "ironwood-times" && k === 0);
      publish(o, { ...story, published: at(rng.int(60, 20 * 60)) }, { free });
    }
  }

  const failures = addBrokenPages(
    routesOf(OUTLETS.find((o) => o.id === "meadowbrook-observer")!),
    listings,
    origins,
  );
  const sources = [WIRE, ...OUTLETS].map((o) =>
    announce(o, origin(o), routesOf(o), listings.get(o.id) ?? []),
  );
  return { routes, sources: { sources }, syndicated, failures };
}

/** Meadowbrook's sitemap also lists pages that must fail, each with its own reason. */
function addBrokenPages(
  r: Map<string, Route>,
  listings: Map<string, Published[]>,
  origins: ReadonlyMap<string, string>,
): Record<string, number> {
  const base = origins.get("meadowbrook-observer")!;
  const own = listings.get("meadowbrook-observer")!;
  const when = own[0]!.published;
  const add = (path: string, route: Route) => {
    r.set(path, route);
    own.push({ path, url: `${base}${path}`, headline: path, published: when });
  };
  add("/news/story-that-was-removed", { status: 404, type: HTML, body: "<h1>Page not found</h1>" });
  add("/news/withdrawn-report", {
    status: 410,
    type: HTML,
    body: "<h1>This article has been withdrawn</h1>",
  });
  add("/files/annual-report.pdf", { status: 200, type: "application/pdf", body: "%PDF-1.4 not a news page" });
  add("/news/in-brief", {
    status: 200,
    type: HTML,
    body: "<html><body><article><h1>In brief</h1><p>More soon.</p></article></body></html>",
  });
  own.push({ path: "/private/draft", url: `${base}/private/draft`, headline: "draft", published: when });
  // A page that answers 503 once: retried after the queue's delay, then fetched.
  const flaky = own[0]!;
  r.set(flaky.path, { ...r.get(flaky.path)!, failFirst: true });
  return { http_404: 1, http_410: 1, not_html: 1, thin_content: 1, robots_disallowed: 1 };
}

/** Serves the outlet's listings the way it announces them, and returns its entry in the sources file. */
function announce(
  o: OutletSpec,
  base: string,
  r: Map<string, Route>,
  items: Published[],
): Record<string, unknown> {
  const abs = (p: string) => `${base}${p}`;
  const xml = (body: string): Route => ({ status: 200, type: XML, body });
  const gz = (body: string): Route => ({ status: 200, type: "application/gzip", body: gzipSync(body) });
  const source = {
    id: o.id,
    publication: o.publication,
    homepage: `${base}/`,
    feeds: [] as string[],
    sitemaps: [] as string[],
    language: "en",
    // Loopback and explicitly local: discovery need not wait the default 500 ms between requests.
    min_delay_ms: 50,
  };
  const robotsFor = (...maps: string[]) =>
    r.set("/robots.txt", { status: 200, type: "text/plain", body: robots(maps.map(abs)) });
  const feed = (path: string, type: string, body: string) => {
    r.set(path, { status: 200, type: `${type}; charset=utf-8`, body });
    robotsFor();
    source.feeds.push(abs(path));
  };
  switch (o.announce) {
    case "sitemap-gzip":
      r.set("/sitemap.xml.gz", gz(sitemap(items)));
      robotsFor("/sitemap.xml.gz");
      break;
    case "news-sitemap":
      r.set("/news-sitemap.xml", xml(newsSitemap(o.publication, items)));
      r.set("/sitemap.xml", xml(sitemap(items)));
      robotsFor("/news-sitemap.xml", "/sitemap.xml");
      break;
    case "sitemap-index": {
      const newest = items.map((i) => i.published).sort();
      const half = Math.ceil(items.length / 2);
      const amp = items.map((i) => ({ ...i, url: abs(`/amp${i.path}`) }));
      r.set(
        "/sitemaps/news.xml",
        xml(newsSitemap(o.publication, [...items.slice(0, half), ...amp.slice(0, 2)])),
      );
      r.set("/sitemaps/archive.xml.gz", gz(sitemap([...items.slice(half), ...amp.slice(2)])));
      r.set(
        "/sitemap_index.xml",
        xml(
          sitemapIndex([
            { url: abs("/sitemaps/news.xml"), lastmod: newest.at(-1)! },
            { url: abs("/sitemaps/archive.xml.gz"), lastmod: newest[0]! },
          ]),
        ),
      );
      robotsFor();
      source.sitemaps.push(abs("/sitemap_index.xml"));
      break;
    }
    case "sitemap-print":
      r.set(
        "/sitemap.xml",
        xml(sitemap([...items, ...items.slice(0, 3).map((i) => ({ ...i, url: `${i.url}?print=1` }))])),
      );
      robotsFor("/sitemap.xml");
      break;
    case "rss":
    case "rss-tracking": {
      const tracked = o.announce === "rss-tracking";
      const links = items.map((i) =>
        tracked ? { ...i, url: `${i.url}?utm_source=rss&utm_medium=feed&utm_campaign=morning` } : i,
      );
      feed("/feed.xml", "application/rss+xml", rss(o.publication, source.homepage, links));
      break;
    }
    case "atom":
      feed("/atom.xml", "application/atom+xml", atom(o.publication, source.homepage, items));
      break;
  }
  return source;
}
