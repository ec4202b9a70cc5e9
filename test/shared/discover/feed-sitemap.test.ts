import { describe, expect, it } from "vitest";
import { parseFeed } from "../../../shared/discover/feed";
import { exactIso } from "../../../shared/discover/hint-date";
import { parseSitemap } from "../../../shared/discover/sitemap";
import { XmlError } from "../../../shared/discover/xml";
import {
  atomFeed,
  BILLION_LAUGHS,
  bigSitemap,
  jsonFeed,
  newsSitemap,
  rdfFeed,
  rssFeed,
  SITEMAP_NS,
  sitemapIndex,
} from "../../support/news-server";

const base = "https://news.example";

describe("parseFeed", () => {
  it("RSS 2.0: CDATA titles, odd dates, FeedBurner origLink, guid permalinks", () => {
    const feed = parseFeed(rssFeed(base), `${base}/feeds/rss.xml`);
    expect(feed.kind).toBe("rss");
    expect(feed.language).toBe("en-GB");
    const byUrl = Object.fromEntries(feed.items.map((i) => [i.url, i]));
    expect(exactIso(byUrl[`${base}/rss/est`]?.published ?? null)).toBe("2026-12-02T02:30:00.000Z");
    expect(exactIso(byUrl[`${base}/rss/noweekday`]?.published ?? null)).toBe("2026-12-02T08:15:00.000Z");
    expect(exactIso(byUrl[`${base}/rss/twodigit`]?.published ?? null)).toBe("2026-12-02T10:00:00.000Z");
    expect(byUrl[`${base}/rss/nozone`]?.published?.precision).toBe("local");
    expect(byUrl[`${base}/rss/junk`]?.published).toBeNull();
    expect(byUrl[`${base}/rss/origin?utm_medium=rss`]?.title).toBe("Proxied");
    expect(byUrl[`${base}/rss/guid-permalink`]?.title).toBe("Guid only");
    expect(feed.items.some((i) => i.url.includes("feedproxy"))).toBe(false);
    expect(feed.items).toHaveLength(7);
  });

  it("Atom: xml:base, rel=alternate only, HTML titles to text, xml:lang", () => {
    const feed = parseFeed(atomFeed(base), `${base}/feeds/atom.xml`);
    expect(feed.kind).toBe("atom");
    expect(feed.title).toBe("Example News");
    expect(feed.items.map((i) => i.url)).toEqual([`${base}/atom/one?ref=atom`, `${base}/atom/two#comments`]);
    expect(feed.items[1]?.title).toBe("Atom two");
    expect(exactIso(feed.items[1]?.updated ?? null)).toBe("2026-12-02T04:00:00.000Z");
    expect(feed.items[0]?.language).toBe("en");
  });

  it("RDF (RSS 1.0) with dc:date and dc:language", () => {
    const feed = parseFeed(rdfFeed(base), `${base}/feeds/rdf.xml`);
    expect(feed.kind).toBe("rdf");
    expect(feed.items.map((i) => [i.url, exactIso(i.published), i.language])).toEqual([
      [`${base}/rdf/eins`, "2026-12-02T06:00:00.000Z", "de"],
      [`${base}/rdf/zwei`, "2026-12-01T07:00:00.000Z", "de"],
    ]);
  });

  it("JSON Feed 1.1: url, relative url against home_page_url, id as URL, items without URL skipped", () => {
    const feed = parseFeed(jsonFeed(base), `${base}/feeds/feed.json`);
    expect(feed.kind).toBe("json");
    expect(feed.items.map((i) => i.url)).toEqual([
      `${base}/json/one`,
      `${base}/json/two/`,
      `${base}/json/three`,
    ]);
    expect(feed.items[1]?.updated).not.toBeNull();
  });

  it("billion laughs: entity expansion is bounded, the document parses quickly with references left unexpanded", () => {
    const feed = parseFeed(BILLION_LAUGHS, `${base}/x`);
    expect(feed.items).toHaveLength(1);
    expect(feed.items[0]?.url).toBe("https://example.com/laughs");
    expect((feed.items[0]?.title ?? "").length).toBeLessThan(1000);
  });

  it("throws XmlError for things that are not feeds", () => {
    expect(() => parseFeed("<html><body>hi</body></html>", base)).toThrow(XmlError);
    expect(() => parseFeed("{not json", base)).toThrow(XmlError);
    expect(() => parseFeed('{"version":"x","items":[]}', base)).toThrow(XmlError);
    expect(() => parseFeed("plain words", base)).toThrow(XmlError);
    expect(() => parseFeed(`${"<a>".repeat(500)}${"</a>".repeat(500)}`, base)).toThrow(XmlError);
  });
});

describe("parseSitemap", () => {
  it("Google News sitemap: title, language, publication date", () => {
    const sm = parseSitemap(newsSitemap(base));
    expect(sm.kind).toBe("urlset");
    if (sm.kind !== "urlset") return;
    expect(sm.urls).toHaveLength(4);
    expect(sm.urls[0]?.news?.title).toBe("Central bank holds rates & signals patience");
    expect(sm.urls[0]?.news?.publication).toBe("Example News");
    expect(sm.urls[3]?.news?.language).toBe("fr");
    expect(exactIso(sm.urls[2]?.news?.publishedAt ?? null)).toBe("2026-11-01T10:00:00.000Z");
  });

  it("sitemap index with lastmod", () => {
    const sm = parseSitemap(sitemapIndex(base));
    expect(sm.kind).toBe("index");
    if (sm.kind !== "index") return;
    expect(sm.sitemaps.map((s) => s.loc)).toContain(`${base}/sitemaps/news.xml`);
    expect(sm.sitemaps[2]?.lastmod?.precision).toBe("day");
  });

  it("text sitemaps and unescaped ampersands", () => {
    expect(parseSitemap(`${base}/a\n${base}/b\n`)).toEqual({
      kind: "urlset",
      urls: [
        { loc: `${base}/a`, lastmod: null, news: null },
        { loc: `${base}/b`, lastmod: null, news: null },
      ],
      skipped: 0,
      damage: [],
    });
    const sm = parseSitemap(`<urlset ${SITEMAP_NS}><url><loc>${base}/a?x=1&y=2</loc></url></urlset>`);
    expect(sm.kind === "urlset" && sm.urls[0]?.loc).toBe(`${base}/a?x=1&y=2`);
  });

  it("broken (truncated) XML: the complete entries before the break are kept", () => {
    const sm = parseSitemap(`<urlset ${SITEMAP_NS}><url><loc>${base}/a</loc></url><url><loc>${base}/b`);
    expect(sm.kind === "urlset" && sm.urls.map((u) => u.loc)).toEqual([`${base}/a`]);
  });

  it("a 50,000-URL sitemap parses", () => {
    const sm = parseSitemap(bigSitemap(base, 50_000));
    expect(sm.kind === "urlset" && sm.urls.length).toBe(50_000);
  });

  it("throws XmlError for non-sitemaps", () => {
    expect(() => parseSitemap("this is not xml")).toThrow(XmlError);
    expect(() => parseSitemap("<rss><channel/></rss>")).toThrow(/not a sitemap: root element <rss>/);
  });
});
