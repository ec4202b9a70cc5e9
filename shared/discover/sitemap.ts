/**
 * Sitemaps (sitemaps.org 0.9): <urlset> with optional Google News extensions, <sitemapindex>, and the
 * plain-text form (one URL per line). Parsing only; fetching, recursion and limits live in discover-source.
 */
import { type HintDate, parseHintDate } from "./hint-date";
import { asArray, child, parseXml, textOf, XmlError } from "./xml";

export interface NewsHint {
  title: string | null;
  language: string | null;
  publication: string | null;
  publishedAt: HintDate | null;
}

export interface SitemapUrl {
  loc: string;
  lastmod: HintDate | null;
  news: NewsHint | null;
}

export interface SitemapRef {
  loc: string;
  lastmod: HintDate | null;
}

export type ParsedSitemap =
  | { kind: "urlset"; urls: SitemapUrl[] }
  | { kind: "index"; sitemaps: SitemapRef[] };

function newsHint(url: unknown): NewsHint | null {
  const news = asArray(child(url, "news"))[0];
  if (!news) return null;
  const publication = asArray(child(news, "publication"))[0];
  return {
    title: textOf(child(news, "title")),
    language: textOf(child(publication, "language")),
    publication: textOf(child(publication, "name")),
    publishedAt: parseHintDate(textOf(child(news, "publication_date"))),
  };
}

function parseTextSitemap(text: string): ParsedSitemap | null {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length === 0 || !lines.every((l) => /^https?:\/\/\S+$/i.test(l))) return null;
  return { kind: "urlset", urls: lines.map((loc) => ({ loc, lastmod: null, news: null })) };
}

/** Throws XmlError when `text` is neither an XML nor a text sitemap. */
export function parseSitemap(text: string): ParsedSitemap {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (!body.startsWith("<")) {
    const plain = parseTextSitemap(body);
    if (plain) return plain;
    throw new XmlError("not a sitemap: neither XML nor a list of URLs");
  }
  const doc = parseXml(body);
  const urlset = child(doc, "urlset");
  if (urlset !== undefined) {
    const urls: SitemapUrl[] = [];
    for (const u of asArray(child(urlset, "url"))) {
      const loc = textOf(child(u, "loc"));
      if (loc) urls.push({ loc, lastmod: parseHintDate(textOf(child(u, "lastmod"))), news: newsHint(u) });
    }
    return { kind: "urlset", urls };
  }
  const index = child(doc, "sitemapindex");
  if (index !== undefined) {
    const sitemaps: SitemapRef[] = [];
    for (const s of asArray(child(index, "sitemap"))) {
      const loc = textOf(child(s, "loc"));
      if (loc) sitemaps.push({ loc, lastmod: parseHintDate(textOf(child(s, "lastmod"))) });
    }
    return { kind: "index", sitemaps };
  }
  const root = Object.keys(doc).find((k) => !k.startsWith("?") && !k.startsWith("#") && !k.startsWith("!"));
  throw new XmlError(`not a sitemap: root element <${root ?? "none"}>`);
}
