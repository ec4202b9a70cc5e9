/**
 * How each demo outlet announces its articles, and over which days, as news sites do: a Google News
 * sitemap lists the last days only, a plain sitemap reaches further back, a feed carries the newest
 * items. Every listing gives an article's last revision as its lastmod, so a crawl sees a page change.
 */
import { gzipSync } from "node:zlib";
import { atom, type Listing, newsSitemap, robots, rss, sitemap, sitemapIndex } from "./discovery-files";
import type { Route } from "./news-web";
import type { OutletSpec } from "./outlets";

/** How many of the web's days (today counted) each kind of listing holds: a crawl on day N sees days
 * N-2..N in a news sitemap (discovery reads news entries up to 3 days old), a week in a plain sitemap,
 * today's and yesterday's items in a feed. */
const LISTING_DAYS = { news: 3, sitemap: 7, feed: 2 } as const;

export interface Published extends Listing {
  readonly path: string;
  /** The web's day number (days since 1970-01-01, UTC) the article was published for. */
  readonly day: number;
}

const XML = "application/xml; charset=utf-8";

/** The newest lastmod of the entries (a sitemap index's child's lastmod). */
const newest = (items: readonly Listing[], fallback: string) =>
  items
    .map((i) => i.lastmod ?? i.published)
    .sort()
    .at(-1) ?? fallback;

/**
 * Serves the outlet's listings the way it announces them, and returns its entry in the sources file.
 * `items`: the outlet's articles, newest day first (within a day in order of publication).
 */
export function announce(
  o: OutletSpec,
  base: string,
  r: Map<string, Route>,
  items: readonly Published[],
  today: number,
): Record<string, unknown> {
  const abs = (p: string) => `${base}${p}`;
  const xml = (body: string): Route => ({ status: 200, type: XML, body });
  const gz = (body: string): Route => ({ status: 200, type: "application/gzip", body: gzipSync(body) });
  const within = (days: number) => items.filter((i) => i.day > today - days);
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
      r.set("/sitemap.xml.gz", gz(sitemap(within(LISTING_DAYS.sitemap))));
      robotsFor("/sitemap.xml.gz");
      break;
    case "news-sitemap":
      r.set("/news-sitemap.xml", xml(newsSitemap(o.publication, within(LISTING_DAYS.news))));
      r.set("/sitemap.xml", xml(sitemap(within(LISTING_DAYS.sitemap))));
      robotsFor("/news-sitemap.xml", "/sitemap.xml");
      break;
    case "sitemap-index": {
      // Each day's first half (and two AMP renderings) in the news child while the day is news; the
      // rest, AMP URLs included, in a gzip archive child.
      const news: Listing[] = [];
      const archive: Listing[] = [];
      const listed = within(LISTING_DAYS.sitemap);
      for (const day of new Set(listed.map((i) => i.day))) {
        const ofDay = listed.filter((i) => i.day === day);
        const half = Math.ceil(ofDay.length / 2);
        const amp = ofDay.map((i) => ({ ...i, url: abs(`/amp${i.path}`) }));
        const isNews = day > today - LISTING_DAYS.news;
        (isNews ? news : archive).push(...ofDay.slice(0, half), ...amp.slice(0, 2));
        archive.push(...ofDay.slice(half), ...amp.slice(2));
      }
      const fallback = listed[0]?.published ?? "2026-01-01T00:00:00Z";
      r.set("/sitemaps/news.xml", xml(newsSitemap(o.publication, news)));
      r.set("/sitemaps/archive.xml.gz", gz(sitemap(archive)));
      r.set(
        "/sitemap_index.xml",
        xml(
          sitemapIndex([
            { url: abs("/sitemaps/news.xml"), lastmod: newest(news, fallback) },
            { url: abs("/sitemaps/archive.xml.gz"), lastmod: newest(archive, fallback) },
          ]),
        ),
      );
      robotsFor();
      source.sitemaps.push(abs("/sitemap_index.xml"));
      break;
    }
    case "sitemap-print": {
      const todays = items.filter((i) => i.day === today).slice(0, 3);
      r.set(
        "/sitemap.xml",
        xml(
          sitemap([
            ...within(LISTING_DAYS.sitemap),
            ...todays.map((i) => ({ ...i, url: `${i.url}?print=1` })),
          ]),
        ),
      );
      robotsFor("/sitemap.xml");
      break;
    }
    case "rss":
    case "rss-tracking": {
      const tracked = o.announce === "rss-tracking";
      const links = within(LISTING_DAYS.feed).map((i) =>
        tracked ? { ...i, url: `${i.url}?utm_source=rss&utm_medium=feed&utm_campaign=morning` } : i,
      );
      feed("/feed.xml", "application/rss+xml", rss(o.publication, source.homepage, links));
      break;
    }
    case "atom":
      feed(
        "/atom.xml",
        "application/atom+xml",
        atom(o.publication, source.homepage, within(LISTING_DAYS.feed)),
      );
      break;
  }
  return source;
}
