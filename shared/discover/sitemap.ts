/**
 * Sitemaps (sitemaps.org 0.9): <urlset> with optional Google News extensions, <sitemapindex>, and the
 * plain-text form (one URL per line). Parsing only; fetching, recursion and limits live in discover-source.
 * Lenient: a broken entry costs that entry only (xml.ts), junk lines in a text sitemap are skipped and
 * counted, and entries past `maxEntries` (or after `onUrl` says stop) are counted, never built: a 49.5 MB
 * sitemap of 1.1 M entries took discovery to 1,073 MB when every entry was built before the URL cap
 * applied, and takes it to ~290 MB now (bench/discover-memory.ts; the discover function has 512 MB).
 */
import { type HintDate, parseHintDate } from "./hint-date";
import { child, readXml, textOf, XmlError } from "./xml";

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

export type ParsedSitemap = (
  | { kind: "urlset"; urls: SitemapUrl[] }
  | { kind: "index"; sitemaps: SitemapRef[] }
) & {
  /** Entries past maxEntries (counted, not built). */
  skipped: number;
  /** What was dropped and why: broken markup, junk lines, a truncated end. */
  damage: string[];
};

export interface SitemapOptions {
  /** Entries to build; later ones are counted in `skipped`. */
  maxEntries?: number;
  /** Called with each URL as it is read, instead of collecting it; return "stop" to build no more. */
  onUrl?: (url: SitemapUrl) => undefined | "stop";
}

function newsHint(url: Parameters<typeof child>[0]): NewsHint | null {
  const news = child(url, "news");
  if (!news) return null;
  const publication = child(news, "publication");
  return {
    title: textOf(child(news, "title")),
    language: textOf(child(publication, "language")),
    publication: textOf(child(publication, "name")),
    publishedAt: parseHintDate(textOf(child(news, "publication_date"))),
  };
}

const URL_LINE = /^https?:\/\/\S+$/i;

function parseTextSitemap(text: string, opts: SitemapOptions): ParsedSitemap | null {
  const max = opts.maxEntries ?? Number.POSITIVE_INFINITY;
  const urls: SitemapUrl[] = [];
  let junk = 0;
  let found = 0;
  let built = 0;
  let stopped = false;
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.trim();
    if (!line) continue;
    if (!URL_LINE.test(line)) {
      junk++;
      continue;
    }
    found++;
    if (stopped || built >= max) continue;
    built++;
    const url: SitemapUrl = { loc: line, lastmod: null, news: null };
    if (opts.onUrl) stopped = opts.onUrl(url) === "stop";
    else urls.push(url);
  }
  if (found === 0) return null;
  return {
    kind: "urlset",
    urls,
    skipped: found - built,
    damage: junk > 0 ? [`${junk} line(s) that are not http(s) URLs skipped`] : [],
  };
}

/** Throws XmlError when `text` is neither an XML nor a text sitemap. */
export function parseSitemap(text: string, opts: SitemapOptions = {}): ParsedSitemap {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (!body.startsWith("<")) {
    const plain = parseTextSitemap(body, opts);
    if (plain) return plain;
    throw new XmlError("not a sitemap: neither XML nor a list of URLs");
  }
  const max = opts.maxEntries ?? Number.POSITIVE_INFINITY;
  const urls: SitemapUrl[] = [];
  const sitemaps: SitemapRef[] = [];
  let built = 0;
  let missingLoc = 0;
  const read = readXml(body, {
    capture: (name, parents) =>
      parents.length === 1 &&
      ((name === "url" && parents[0] === "urlset") || (name === "sitemap" && parents[0] === "sitemapindex")),
    onElement: (el) => {
      const loc = textOf(child(el, "loc"));
      if (!loc) {
        missingLoc++;
        return undefined;
      }
      const lastmod = parseHintDate(textOf(child(el, "lastmod")));
      if (el.name === "sitemap") sitemaps.push({ loc, lastmod });
      else {
        const url = { loc, lastmod, news: newsHint(el) };
        if (opts.onUrl?.(url) === "stop") return "skip";
        if (!opts.onUrl) urls.push(url);
      }
      return ++built >= max ? "skip" : undefined;
    },
  });
  const damage = read.damage;
  if (missingLoc > 0) damage.push(`${missingLoc} entr(y/ies) without <loc> skipped`);
  if (read.root?.name === "urlset") return { kind: "urlset", urls, skipped: read.skipped, damage };
  if (read.root?.name === "sitemapindex") return { kind: "index", sitemaps, skipped: read.skipped, damage };
  throw new XmlError(`not a sitemap: root element <${read.root?.name ?? "none"}>`);
}
