/**
 * Feeds: RSS 2.0 (and 0.9x), Atom 1.0 (and 0.3), RSS 1.0 (RDF) and JSON Feed 1.x. Parsing only, on
 * text or bytes fetched through HttpClient (bytes are decoded per XML 1.0 appendix F: xml-encoding.ts).
 * Relative links resolve as XML Base says: against the nearest xml:base (on the root, channel, entry
 * and link elements, each relative to its parent's), then the response's Content-Location, then the
 * feed URL. An Atom entry without a link uses its <id> when that is an absolute http(s) URL (RFC 4287
 * ids are often the entry's permalink; feedparser does the same, with any id).
 */
import { decodeHTML } from "entities";
import { type HintDate, parseHintDate } from "./hint-date";
import { attr, child, children, readXml, textOf, type XmlElement, XmlError } from "./xml";
import { decodeXml } from "./xml-encoding";

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
  /** Items past maxItems (counted, not built). */
  skipped: number;
  /** What was dropped and why (broken markup, a truncated end, ignored DTD entities). */
  damage: string[];
}

function resolve(href: string | null, base: string): string | null {
  if (!href) return null;
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}

/**
 * A base URL longer than this is ignored (its parent's base is kept): a document could otherwise grow
 * one with each nested relative xml:base. Browsers and sitemaps.org draw the line at 2,048–8,192.
 */
const MAX_BASE_CHARS = 8_192;

/**
 * The base an element's xml:base (attribute `base`, lower-cased local name) makes of its parent's;
 * `tooLong` hears of a base ignored for its length.
 */
function baseOf(attrs: Readonly<Record<string, string>>, parent: string, tooLong?: () => void): string {
  const own = attrs.base;
  if (!own) return parent;
  const url = resolve(own, parent);
  if (url && url.length > MAX_BASE_CHARS) tooLong?.();
  return url && url.length <= MAX_BASE_CHARS ? url : parent;
}

function isHttp(url: string | null): url is string {
  return url !== null && /^https?:/i.test(url);
}

const INLINE_TAG = /<\/?(?:a|abbr|b|bdi|cite|code|em|font|i|mark|q|s|small|span|strong|sub|sup|u)\b[^>]*>/gi;

/** Titles may carry markup (type="html", CDATA); hints want plain text. HTML's own entities decode after its tags go. */
function plainTitle(raw: string | null, html = true): string | null {
  if (!raw) return null;
  // Inline tags vanish ("<em>Breaking</em>: news"); any other tag separates words ("<p>a</p><p>b</p>").
  const text = html ? decodeHTML(raw.replace(INLINE_TAG, "").replace(/<[^>]*>/g, " ")) : raw;
  const t = text.replace(/\s+/g, " ").trim();
  return t ? t.slice(0, 500) : null;
}

type Entry = XmlElement;

function rssLink(item: Entry, base: string): string | null {
  // FeedBurner keeps the publisher's URL in feedburner:origLink; link points at the proxy.
  const orig = resolve(textOf(child(item, "origlink")), base);
  if (orig) return orig;
  for (const l of children(item, "link")) {
    const rel = attr(l, "rel");
    if (rel && rel !== "alternate") continue;
    const url = resolve(attr(l, "href") ?? textOf(l), baseOf(l.attrs, base));
    if (url) return url;
  }
  const guid = child(item, "guid");
  if (guid && attr(guid, "ispermalink")?.toLowerCase() !== "false") {
    const g = textOf(guid);
    if (g && /^https?:\/\//i.test(g)) return resolve(g, base);
  }
  return null;
}

function atomLink(entry: Entry, base: string): string | null {
  let fallback: string | null = null;
  for (const l of children(entry, "link")) {
    const rel = attr(l, "rel") ?? "alternate";
    if (rel !== "alternate") continue;
    const url = resolve(attr(l, "href") ?? textOf(l), baseOf(l.attrs, base));
    if (!url) continue;
    const type = attr(l, "type");
    if (!type || /html/i.test(type)) return url;
    fallback ??= url;
  }
  if (fallback) return fallback;
  // No link: the entry's id when it is an http(s) URL. urn:uuid:, tag: … are not pages, and a relative
  // id is not an IRI at all (RFC 4287 §4.2.6), so it is not resolved into one.
  const id = textOf(child(entry, "id"));
  return id && /^https?:\/\//i.test(id) ? resolve(id, base) : null;
}

/** Text of a title-like element: Atom type="html" (and RSS titles that hold markup) are HTML to flatten. */
function titleOf(el: XmlElement | null): string | null {
  const raw = textOf(el);
  if (!raw) return null;
  const type = attr(el, "type")?.toLowerCase();
  const html = type === "html" || type === "text/html" || (type !== "text" && /<[a-z/!]/i.test(raw));
  return plainTitle(raw, html);
}

function date(el: Entry, ...names: string[]): HintDate | null {
  for (const n of names) {
    const d = parseHintDate(textOf(child(el, n)));
    if (d) return d;
  }
  return null;
}

function rssItem(item: Entry, base: string, language: string | null): FeedItem | null {
  const url = rssLink(item, base);
  if (!url) return null;
  return {
    url,
    title: titleOf(child(item, "title")),
    published: date(item, "pubdate", "date", "issued", "published"),
    updated: date(item, "modified", "updated"),
    language: textOf(child(item, "language")) ?? language,
  };
}

/** `base` is the entry's own (its xml:base applied). */
function atomEntry(entry: Entry, base: string, language: string | null): FeedItem | null {
  const url = atomLink(entry, base);
  if (!url) return null;
  return {
    url,
    title: titleOf(child(entry, "title")),
    published: date(entry, "published", "issued", "created", "pubdate"),
    updated: date(entry, "updated", "modified"),
    language: attr(entry, "lang") ?? language,
  };
}

function str(v: unknown): string | null {
  return typeof v === "string" && v.trim() ? v.trim() : null;
}

function parseJsonFeed(text: string, feedUrl: string, maxItems: number): ParsedFeed {
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
  let skipped = 0;
  for (const raw of feed.items) {
    if (!raw || typeof raw !== "object") continue;
    if (items.length >= maxItems) {
      skipped++;
      continue;
    }
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
  return { kind: "json", title: plainTitle(str(feed.title)), language, items, skipped, damage: [] };
}

const ROOTS: Readonly<Record<string, ParsedFeed["kind"]>> = { rss: "rss", feed: "atom", rdf: "rdf" };
const ENTRY = new Set(["item", "entry"]);
const CHANNEL = new Set(["channel", "feed"]);

export interface FeedOptions {
  /** Items to build; later ones are counted in `skipped`. */
  maxItems?: number;
  /** The response's Content-Location header: the document's base URI when present (RFC 7231 §3.1.4.2). */
  contentLocation?: string | null;
  /** The response's Content-Type, whose charset decodes bytes (ignored for text). */
  contentType?: string | null;
}

function parseXmlFeed(body: string, docBase: string, maxItems: number): ParsedFeed {
  let title: string | null = null;
  let language: string | null = null;
  // The base URI at each open depth outside entries (bases[d] for the open element at depth d).
  const bases: string[] = [];
  let longBases = 0;
  const items: FeedItem[] = [];
  let kind: ParsedFeed["kind"] | undefined;
  const read = readXml(body, {
    capture: (name, parents, attrs) => {
      const depth = parents.length;
      bases[depth] = baseOf(attrs, depth === 0 ? docBase : bases[depth - 1]!, () => longBases++);
      if (depth === 0) {
        kind = ROOTS[name];
        // Atom's xml:lang on <feed> applies to every entry.
        language = attrs.lang || null;
        return false;
      }
      if (kind === undefined) return false;
      // Channel metadata: <channel>'s (or Atom <feed>'s) own title and language.
      const parent = parents[parents.length - 1]!;
      if (CHANNEL.has(parent) && (name === "title" || name === "language")) return true;
      return ENTRY.has(name);
    },
    onElement: (el, parents) => {
      if (el.name === "title" && !ENTRY.has(parents[parents.length - 1] ?? "")) {
        title ??= titleOf(el);
        return undefined;
      }
      if (el.name === "language") {
        language ??= textOf(el);
        return undefined;
      }
      const base = bases[parents.length] ?? docBase; // the entry's own, set when it opened
      const item = el.name === "entry" ? atomEntry(el, base, language) : rssItem(el, base, language);
      if (item) items.push(item);
      return items.length >= maxItems ? "skip" : undefined;
    },
  });
  if (!kind || !read.root) {
    throw new XmlError(`not a feed: root element <${read.root?.name ?? "none"}>`);
  }
  const damage = read.damage;
  if (longBases > 0) damage.push(`xml:base longer than ${MAX_BASE_CHARS} characters ignored (×${longBases})`);
  return { kind, title, language, items, skipped: read.skipped, damage };
}

/**
 * Throws XmlError when `input` is not a feed this module knows. Bytes are decoded here (UTF-16 and
 * UTF-32 included); their size is the caller's cap (fetch counts a body's bytes before any decoding).
 */
export function parseFeed(input: string | Uint8Array, feedUrl: string, opts: FeedOptions = {}): ParsedFeed {
  const text = typeof input === "string" ? input : decodeXml(input, opts.contentType).text;
  const body = text.replace(/^\uFEFF/, "").trimStart();
  const maxItems = opts.maxItems ?? Number.POSITIVE_INFINITY;
  if (body.startsWith("{")) return parseJsonFeed(body, feedUrl, maxItems);
  if (!body.startsWith("<")) throw new XmlError("not a feed: neither XML nor JSON");
  // Content-Location names the document's own URI; only an http(s) one is taken as the base.
  const located = resolve(opts.contentLocation ?? null, feedUrl);
  return parseXmlFeed(body, isHttp(located) ? located : feedUrl, maxItems);
}
