/**
 * Feeds: RSS 2.0 (and 0.9x), Atom 1.0, RSS 1.0 (RDF) and JSON Feed 1.x. Parsing only, on text fetched
 * through HttpClient. Links are resolved against xml:base or the feed URL.
 */
import { type HintDate, parseHintDate } from "./hint-date";
import { asArray, attr, child, parseXml, textOf, XmlError } from "./xml";

export interface FeedItem {
  url: string;
  title: string | null;
  published: HintDate | null;
  updated: HintDate | null;
  language: string | null;
}

export interface ParsedFeed {
  kind: "rss" | "atom" | "rdf" | "json";
  title: string | null;
  language: string | null;
  items: FeedItem[];
}

function resolve(href: string | null, base: string): string | null {
  if (!href) return null;
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}

/** Titles may carry markup (type="html", CDATA); hints want plain text. */
export function plainTitle(raw: string | null): string | null {
  if (!raw) return null;
  const t = raw
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return t ? t.slice(0, 500) : null;
}

function rssLink(item: unknown, base: string): string | null {
  // FeedBurner keeps the publisher's URL in feedburner:origLink; link points at the proxy.
  const orig = resolve(textOf(child(item, "origLink")), base);
  if (orig) return orig;
  for (const l of asArray(child(item, "link"))) {
    const href = typeof l === "string" ? l : (attr(l, "href") ?? textOf(l));
    const rel = attr(l, "rel");
    if (rel && rel !== "alternate") continue;
    const url = resolve(href, base);
    if (url) return url;
  }
  const guid = asArray(child(item, "guid"))[0];
  if (guid !== undefined && attr(guid, "isPermaLink") !== "false") {
    const g = textOf(guid);
    if (g && /^https?:\/\//i.test(g)) return resolve(g, base);
  }
  return null;
}

function atomLink(entry: unknown, base: string): string | null {
  let fallback: string | null = null;
  for (const l of asArray(child(entry, "link"))) {
    const rel = attr(l, "rel") ?? "alternate";
    if (rel !== "alternate") continue;
    const url = resolve(attr(l, "href") ?? textOf(l), base);
    if (!url) continue;
    const type = attr(l, "type");
    if (!type || /html/i.test(type)) return url;
    fallback ??= url;
  }
  return fallback;
}

function parseRss(channel: unknown, itemsNode: unknown[], base: string, kind: "rss" | "rdf"): ParsedFeed {
  const language = textOf(child(channel, "language"));
  const items: FeedItem[] = [];
  for (const item of itemsNode) {
    const url = rssLink(item, base);
    if (!url) continue;
    const published =
      parseHintDate(textOf(child(item, "pubDate"))) ?? parseHintDate(textOf(child(item, "date")));
    items.push({
      url,
      title: plainTitle(textOf(child(item, "title"))),
      published,
      updated:
        parseHintDate(textOf(child(item, "modified"))) ?? parseHintDate(textOf(child(item, "updated"))),
      language: textOf(child(item, "language")) ?? language,
    });
  }
  return { kind, title: plainTitle(textOf(child(channel, "title"))), language, items };
}

function parseAtom(feed: unknown, feedUrl: string): ParsedFeed {
  const base = resolve(attr(feed, "base"), feedUrl) ?? feedUrl;
  const language = attr(feed, "lang");
  const items: FeedItem[] = [];
  for (const entry of asArray(child(feed, "entry"))) {
    const entryBase = resolve(attr(entry, "base"), base) ?? base;
    const url = atomLink(entry, entryBase);
    if (!url) continue;
    items.push({
      url,
      title: plainTitle(textOf(child(entry, "title"))),
      published:
        parseHintDate(textOf(child(entry, "published"))) ?? parseHintDate(textOf(child(entry, "issued"))),
      updated:
        parseHintDate(textOf(child(entry, "updated"))) ?? parseHintDate(textOf(child(entry, "modified"))),
      language: attr(entry, "lang") ?? language,
    });
  }
  return { kind: "atom", title: plainTitle(textOf(child(feed, "title"))), language, items };
}

function str(v: unknown): string | null {
  return typeof v === "string" && v.trim() ? v.trim() : null;
}

function parseJsonFeed(text: string, feedUrl: string): ParsedFeed {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new XmlError(`invalid JSON Feed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw new XmlError("JSON Feed is not an object");
  const feed = doc as Record<string, unknown>;
  const version = str(feed.version);
  if (!Array.isArray(feed.items) || (version && !version.includes("jsonfeed.org"))) {
    throw new XmlError("not a JSON Feed: no jsonfeed.org version or items array");
  }
  const language = str(feed.language);
  const base = resolve(str(feed.home_page_url), feedUrl) ?? feedUrl;
  const items: FeedItem[] = [];
  for (const raw of feed.items) {
    if (!raw || typeof raw !== "object") continue;
    const item = raw as Record<string, unknown>;
    const id = str(item.id);
    const url = resolve(
      str(item.url) ?? str(item.external_url) ?? (id && /^https?:\/\//i.test(id) ? id : null),
      base,
    );
    if (!url) continue;
    items.push({
      url,
      title: plainTitle(str(item.title)),
      published: parseHintDate(str(item.date_published)),
      updated: parseHintDate(str(item.date_modified)),
      language: str(item.language) ?? language,
    });
  }
  return { kind: "json", title: plainTitle(str(feed.title)), language, items };
}

/** Throws XmlError when `text` is not a feed this module knows. */
export function parseFeed(text: string, feedUrl: string): ParsedFeed {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (body.startsWith("{")) return parseJsonFeed(body, feedUrl);
  if (!body.startsWith("<")) throw new XmlError("not a feed: neither XML nor JSON");
  const doc = parseXml(body);
  const rss = child(doc, "rss");
  if (rss !== undefined) {
    const channel = asArray(child(rss, "channel"))[0];
    return parseRss(channel, asArray(child(channel, "item")), feedUrl, "rss");
  }
  const feed = child(doc, "feed");
  if (feed !== undefined) return parseAtom(feed, feedUrl);
  const rdf = child(doc, "RDF");
  if (rdf !== undefined) {
    const channel = asArray(child(rdf, "channel"))[0];
    // RSS 1.0 puts items beside the channel; some generators nest them.
    const items = asArray(child(rdf, "item"));
    return parseRss(channel, items.length ? items : asArray(child(channel, "item")), feedUrl, "rdf");
  }
  const root = Object.keys(doc).find((k) => !k.startsWith("?") && !k.startsWith("#") && !k.startsWith("!"));
  throw new XmlError(`not a feed: root element <${root ?? "none"}>`);
}
