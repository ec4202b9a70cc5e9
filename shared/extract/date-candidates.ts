/**
 * Where a page states its dates: the candidates for its publication date in order of trust (JSON-LD
 * datePublished, article:published_time, other meta tags, microdata, a marked <time>, then the generic
 * Dublin Core fields), the fallback when it has none of them (embedded state JSON, the URL path, an
 * unmarked <time>, the visible text), and its modification date. dates.ts chooses among them.
 */
import type { PublishedAtSource } from "../records";
import { dateFromUrl, parseStatedDate, type StatedDate } from "./date-parse";
import { type AnyNode, attr, type Element, hasAncestorNamed, textOf } from "./dom";
import { listItems } from "./list-items";
import { metaValue, type PageSignals } from "./page-signals";
import { type JsonObject, str } from "./structured-data";
import { findTextDate } from "./text-dates";

/** What the page gives to read its dates from. */
export interface DateSources {
  signals: PageSignals;
  article: JsonObject | null;
  page: JsonObject | null;
  url: string;
  root: AnyNode;
  now: Date;
  /** The raw page, for dates in embedded state JSON. */
  html: string;
  /** False on a US English page: slash dates month first (shared/extract/date-order.ts). */
  dayFirst?: boolean;
}

const PUBLISHED_META = [
  "article:published_time",
  "og:published_time",
  "article:published",
  "published_time",
  "itemprop:datepublished",
  "parsely-pub-date",
  "sailthru.date",
  "dc.date.issued",
  "dcterms.issued",
  "dc.date.created",
  "dcterms.created",
  "dc.date",
  "dcterms.date",
  "dc:date",
  "date",
  "pubdate",
  "publishdate",
  "publish-date",
  "publish_date",
  "published-date",
  "publication_date",
  "publication-date",
  "article.published",
  "article_date_original",
  "original-publish-date",
  "originalpublicationdate",
  "cxenseparse:recs:publishtime",
  "datepublished",
  "date_published",
  "release_date",
  "citation_publication_date",
  "citation_date",
  "prism.publicationdate",
  "bt:pubdate",
  "nv:date",
  "iso-8601-publish-date",
  "created",
  "creation_date",
  "dc.created",
  "itemprop:datecreated",
  "og:article:published_time",
  "twitter:data1",
];
const GENERIC_META = new Set([
  "dc.date",
  "dcterms.date",
  "dc:date",
  "date",
  "created",
  "creation_date",
  "dc.created",
]);
const KNOWN_META = new Set([...PUBLISHED_META, ...GENERIC_META]);
const PUBLISHED_KEY =
  /(?:^|[:._-])(?:published|created|publishdate|pubdate|publicationdate)(?:[-_]?(?:time|date|at|on))?$/;
const MODIFIED_KEY = /(?:modified|modification|updated|update)(?:[-_]?(?:time|date|at|on))?$/;
const MODIFIED_META = [
  "article:modified_time",
  "og:updated_time",
  "article:modified",
  "itemprop:datemodified",
  "dcterms.modified",
  "dc.date.modified",
  "last-modified",
  "lastmod",
  "parsely-updated",
];

export interface DateCandidate {
  date: StatedDate;
  source: PublishedAtSource;
  /** A field that may hold any date of the document (Dublin Core date, an unmarked <time>). */
  weak?: boolean;
}

function parseParselyPage(s: PageSignals): string | null {
  const raw = metaValue(s, "parsely-page");
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as JsonObject;
    return str(v.pub_date);
  } catch {
    return null;
  }
}

/** <time datetime>, <abbr title="…">, and the epoch seconds some pages put in data-utime. */
function timeElementDate(el: Element): StatedDate | null {
  const dt =
    attr(el, "datetime") ?? attr(el, "content") ?? (el.name === "abbr" ? attr(el, "title") : undefined);
  if (dt) {
    const d = parseStatedDate(dt, { epoch: false });
    if (d) return d;
  }
  const utime = attr(el, "data-utime");
  return utime ? parseStatedDate(utime) : null;
}

function isModifiedMarker(el: Element): boolean {
  const s = `${el.attribs.class ?? ""} ${el.attribs.itemprop ?? ""} ${el.attribs.id ?? ""}`.toLowerCase();
  return /modif|updat|aktualisiert|edited/.test(s);
}

function isPublishedMarker(el: Element): boolean {
  if (el.attribs.pubdate !== undefined) return true;
  const s = `${el.attribs.class ?? ""} ${el.attribs.itemprop ?? ""} ${el.attribs.id ?? ""}`.toLowerCase();
  return /publish|posted|created|entry-date|pubdate|datepublished/.test(s);
}

export function collectPublished(input: DateSources): DateCandidate[] {
  const { signals: s, article, page } = input;
  const out: DateCandidate[] = [];
  const push = (v: unknown, source: PublishedAtSource, weak = false): void => {
    const raw = str(v);
    if (!raw) return;
    const d = parseStatedDate(raw, { dayFirst: input.dayFirst });
    if (d) out.push({ date: d, source, weak });
  };
  if (article) {
    push(article.datePublished, "jsonld");
    push(article.dateCreated, "jsonld");
  }
  if (page) push(page.datePublished, "jsonld");
  for (const k of PUBLISHED_META) {
    if (GENERIC_META.has(k)) continue;
    const values = s.meta.get(k);
    if (!values) continue;
    for (const v of values) push(v, "meta");
  }
  push(parseParselyPage(s), "meta");
  // Keys the lists above miss but that name themselves a publication date ("og:article:published",
  // "cms.created", "date-published"): by their ending, not by site.
  // A value a modification key repeats is the record's last save, not its publication.
  const saved = new Set<string>();
  for (const [k, values] of s.meta) if (MODIFIED_KEY.test(k)) for (const v of values) saved.add(v.trim());
  for (const [k, values] of s.meta) {
    if (KNOWN_META.has(k) || !PUBLISHED_KEY.test(k)) continue;
    for (const v of values) if (!saved.has(v.trim())) push(v, "meta");
  }
  for (const el of s.itemprops) {
    const p = el.attribs.itemprop?.toLowerCase() ?? "";
    if (p === "datepublished" || p === "datecreated") {
      const raw = attr(el, "content") ?? attr(el, "datetime") ?? textOf(el);
      push(raw, "microdata");
    }
  }
  // <time>: marked as published, or inside the <article> and not an item of a list (comments, teasers);
  // others are weak evidence.
  const times = s.times.filter((t) => !isModifiedMarker(t));
  const listed = listItems(times);
  for (const t of [
    ...times.filter(isPublishedMarker),
    // An <abbr> counts only marked as the published date (hAtom's abbr.published) or carrying a machine
    // timestamp (data-utime): unmarked ones are lists of dates.
    ...times.filter(
      (t) =>
        (t.name === "time" || t.attribs["data-utime"] !== undefined) &&
        !listed.has(t) &&
        hasAncestorNamed(t, "article"),
    ),
  ]) {
    const d = timeElementDate(t);
    if (d) out.push({ date: d, source: "time" });
  }
  // Generic date fields (Dublin Core date, "date") may be any date of the document: after <time>.
  for (const k of GENERIC_META) {
    for (const v of s.meta.get(k) ?? []) push(v, "meta", true);
  }
  return out;
}

/** No metadata date: page-embedded JSON, the URL path, an unmarked <time>, then the visible text. */
export function fallbackDate(input: DateSources): DateCandidate | undefined {
  const embedded = embeddedJsonDate(input.html);
  if (embedded) return { date: embedded, source: "meta" };
  const fromUrl = urlDate(input.url);
  if (fromUrl) return { date: fromUrl, source: "url" };
  const weak = firstTimeElement(input.signals);
  if (weak) return { date: weak, source: "time", weak: true };
  const fromText = findTextDate(input.root, input.now, input.dayFirst);
  return fromText ? { date: fromText, source: "text" } : undefined;
}

const EMBEDDED_KEYS = new Set([
  "datePublished",
  "publishedDate",
  "publishDate",
  "published_at",
  "publishedAt",
  "date_published",
  "firstPublished",
  "publishedTime",
  "publicationDate",
]);
const EMBEDDED_VALUE = /^\s*:\s*["']([^"']{8,40})["']/;

/**
 * Publication dates in page state JSON (not JSON-LD): `"publishedDate":"2016-11-04T20:37:27Z"`. One indexOf
 * scan for the common stem of the keys, then a look at the quoted key around each hit.
 */
function embeddedJsonDate(html: string): StatedDate | null {
  return embeddedAround(html, "ublish") ?? embeddedAround(html, "publicationDate");
}

function embeddedAround(html: string, stem: string): StatedDate | null {
  let from = 0;
  for (let hits = 0; hits < 50; hits++) {
    const i = html.indexOf(stem, from);
    if (i < 0) return null;
    from = i + stem.length;
    const open = html.lastIndexOf('"', i);
    if (open < 0 || i - open > 12) continue;
    const close = html.indexOf('"', i);
    if (close < 0 || close - i > 16) continue;
    if (!EMBEDDED_KEYS.has(html.slice(open + 1, close))) continue;
    const m = EMBEDDED_VALUE.exec(html.slice(close + 1, close + 60));
    const d = m?.[1] ? parseStatedDate(m[1]) : null;
    if (d) return d;
  }
  return null;
}

function firstTimeElement(s: PageSignals): StatedDate | null {
  const listed = listItems(s.times);
  for (const t of s.times) {
    if (isModifiedMarker(t) || t.name !== "time" || listed.has(t)) continue;
    const d = timeElementDate(t);
    if (d) return d;
  }
  return null;
}

/** The page's modification instant: structured data and meta first, then a <time> (or hAtom's
 * abbr.updated) marked as the update, outside lists (a comment's edit time is not the article's): the
 * `Updated <time class="updated" datetime>` byline some CMSs print instead of dateModified. */
export function collectModified(input: DateSources): StatedDate | null {
  const { signals: s, article } = input;
  const tries: unknown[] = [article?.dateModified];
  for (const k of MODIFIED_META) tries.push(metaValue(s, k));
  for (const v of tries) {
    const raw = str(v);
    if (!raw) continue;
    const d = parseStatedDate(raw);
    if (d?.instant) return d;
  }
  const listed = listItems(s.times);
  for (const t of s.times) {
    if (!isModifiedMarker(t) || listed.has(t)) continue;
    const d = timeElementDate(t);
    if (d?.instant) return d;
  }
  return null;
}

export function urlDate(url: string): StatedDate | null {
  try {
    return dateFromUrl(url);
  } catch {
    return null;
  }
}
