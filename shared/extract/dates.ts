/**
 * Publication and modification dates. Sources in order of trust: JSON-LD datePublished, article:published_time,
 * other meta tags (Parse.ly, Dublin Core, itemprop, …), microdata, <time datetime>, the URL path, then visible
 * text. published_at is UTC and only set when the page states a timezone and the date is not in the future;
 * otherwise it is null with date_flag, and published_day still carries the day the page states.
 */
import type { DateFlag, DateOrderFlag, PublishedAtSource } from "../records";
import { dateFromUrl, parseStatedDate, type StatedDate } from "./date-parse";
import { type AnyNode, attr, type Element, hasAncestorNamed, textOf } from "./dom";
import { type HeaderDate, headerDate } from "./header-dates";
import { listItems } from "./list-items";
import { dayInZone, localDay, statedLocalDay } from "./local-day";
import { metaValue, type PageSignals } from "./page-signals";
import { type JsonObject, str } from "./structured-data";
import { findTextDate } from "./text-dates";

export interface DateResult {
  published_at: string | null;
  published_day: string | null;
  published_at_source: PublishedAtSource | null;
  /** The structured-data date the visible byline overrode (its instant, else its day), else null. */
  published_at_structured: string | null;
  date_flag: DateFlag | null;
  /** Set when the page's dates disagreed on the published date's day/month order (records.ts). */
  date_order_flag: DateOrderFlag | null;
  modified_at: string | null;
}

/** The sources that are the page's structured data, kept beside the byline that overrides them. */
const STRUCTURED: ReadonlySet<PublishedAtSource> = new Set(["jsonld", "microdata", "meta"]);

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

interface Candidate {
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

export interface DateInput {
  signals: PageSignals;
  article: JsonObject | null;
  page: JsonObject | null;
  url: string;
  root: AnyNode;
  container: Element | null;
  now: Date;
  /** The raw page, for dates in embedded state JSON. */
  html: string;
  /** False on a US English page: slash dates month first (shared/extract/date-order.ts). */
  dayFirst?: boolean;
  /** The chosen headline: locates the header on a page whose headline is not an <h1>. */
  headline?: string | null;
  /** The publication date a feed or sitemap stated for the URL, when the caller has one: evidence for the
   * order of a slash date, never a date of its own. */
  publishedHint?: string | null;
  /** The source's IANA time zone, when configured: published_day is published_at's day there. */
  timeZone?: string | null;
  /** The zones of the page's country (page-country.ts), for a UTC-stated instant's day when the source
   * has no zone: the day shown on the page must be one of theirs. Empty when the country is unknown. */
  zones?: () => readonly string[];
}

function collectPublished(input: DateInput): Candidate[] {
  const { signals: s, article, page } = input;
  const out: Candidate[] = [];
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
function fallbackDate(input: DateInput): Candidate | undefined {
  const embedded = embeddedJsonDate(input.html);
  if (embedded) return { date: embedded, source: "meta" };
  const fromUrl = urlCandidate(input.url);
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

function collectModified(input: DateInput): StatedDate | null {
  const { signals: s, article } = input;
  const tries: unknown[] = [article?.dateModified];
  for (const k of MODIFIED_META) tries.push(metaValue(s, k));
  for (const v of tries) {
    const raw = str(v);
    if (!raw) continue;
    const d = parseStatedDate(raw);
    if (d?.instant) return d;
  }
  return null;
}

const FUTURE_SLACK_MS = 5 * 60_000;

function isFuture(d: StatedDate, now: Date): boolean {
  if (d.instant) return Date.parse(d.instant) > now.getTime() + FUTURE_SLACK_MS;
  // A day alone is in the future only when it has not begun anywhere on Earth (UTC+14).
  return Date.parse(`${d.day}T00:00:00Z`) - 14 * 3600_000 > now.getTime();
}

export function extractDates(input: DateInput): DateResult {
  const candidates = collectPublished(input);
  const modified = collectModified(input);
  const modified_at = modified?.instant && !isFuture(modified, input.now) ? modified.instant : null;
  let primary: Candidate | undefined = candidates.find((c) => !isFuture(c.date, input.now)) ?? candidates[0];
  primary ??= fallbackDate(input);
  if (!primary) {
    return {
      published_at: null,
      published_day: null,
      published_at_source: null,
      published_at_structured: null,
      date_flag: "missing",
      date_order_flag: null,
      modified_at,
    };
  }
  const evidence = (): StatedDate[] => {
    const hint = input.publishedHint ? parseStatedDate(input.publishedHint) : null;
    return [urlCandidate(input.url), hint, ...candidates.map((c) => c.date)].filter(
      (d): d is StatedDate => d !== null,
    );
  };
  const header = headerOnce(input, evidence);
  if (primary.date.other) {
    const checked = crossChecked(primary.date, [...evidence(), ...headerDates(header())]);
    if (checked !== primary.date) primary = { ...primary, date: checked };
  }
  const before = primary;
  primary = bylineOver(primary, header());
  const overridden = primary !== before && STRUCTURED.has(before.source) ? before.date : null;
  const published_at_structured = overridden && (overridden.instant ?? overridden.day);
  let { date, source } = primary;
  // The day of a UTC-stated instant: another statement of the same instant in local time, else the day the
  // page shows when a zone of the page's country (any zone, the country unknown) puts the instant on it; an
  // "updated" line's day is not the publication's.
  date = localDay(
    date,
    candidates.map((c) => c.date),
  );
  date = statedLocalDay(
    date,
    () => {
      const shown = header();
      return urlCandidate(input.url) ?? (shown && !shown.update ? shown.date : null);
    },
    input.zones,
  );
  // The shown date may settle the order while another statement of the same day is chosen (the URL's).
  const shown = header()?.date;
  const date_order_flag = date.order ?? (shown?.order && shown.day === date.day ? shown.order : null);
  if (!date.instant) {
    // The same day stated elsewhere with a timezone gives the instant without guessing.
    const withTz = candidates.find((c) => c.date.instant && c.date.day === date.day);
    if (withTz) ({ date, source } = withTz);
  }
  // A future date, or one without a timezone, keeps its day and says why it has no instant.
  const date_flag: DateFlag | null = isFuture(date, input.now)
    ? "future"
    : date.instant
      ? null
      : "no_timezone";
  const published_at = date_flag ? null : date.instant;
  return {
    published_at,
    published_day: publishedDay(published_at, date, input.timeZone ?? null),
    published_at_source: source,
    published_at_structured,
    date_flag,
    date_order_flag,
    modified_at,
  };
}

/**
 * With the source's zone the day is published_at's there; else the day the page states (local-day.ts). A
 * time written as midnight exactly ("2020-01-10T00:00:00+00:00") is a date a CMS wrote as an instant: its
 * day is the one written, which a zone west of the offset would move to the day before.
 */
function publishedDay(publishedAt: string | null, date: StatedDate, timeZone: string | null): string {
  if (!publishedAt || !timeZone || date.clock === 0) return date.day;
  return dayInZone(publishedAt, timeZone) ?? date.day;
}

/** The header's date, found at most once (it walks the headline's region), its order cross-checked. */
function headerOnce(input: DateInput, evidence: () => StatedDate[]): () => HeaderDate | null {
  let found: HeaderDate | null | undefined;
  return () => {
    if (found === undefined) {
      const h = headerDate(input);
      found = h && { ...h, date: crossChecked(h.date, evidence()) };
    }
    return found;
  };
}

function headerDates(h: HeaderDate | null): StatedDate[] {
  return h ? [h.date] : [];
}

/**
 * A slash date read in the page's locale order ("03/04/2026") that the page's other dates contradict: the
 * other reading, when more of them (the URL's, the structured data's, the byline's, a feed's) fall within a
 * day of it than of the locale's reading. Dates that are themselves ambiguous are no evidence. Either way a
 * reading some evidence contradicts carries `order` (swapped, contested) for the record's date_order_flag.
 */
function crossChecked(date: StatedDate, evidence: readonly StatedDate[]): StatedDate {
  const other = date.other;
  if (!other) return date;
  const near = (a: string, b: string): boolean => Math.abs(Date.parse(a) - Date.parse(b)) <= DAY_MS;
  let forRead = 0;
  let forOther = 0;
  for (const e of evidence) {
    if (e === date || e.other) continue;
    if (near(e.day, date.day)) forRead++;
    if (near(e.day, other.day)) forOther++;
  }
  if (forOther === 0) return date;
  return forOther > forRead ? { ...other, order: "swapped" } : { ...date, order: "contested" };
}

const DAY_MS = 86_400_000;

/**
 * The visible byline over a date that disagrees with it: over a weak field (Dublin Core "date", an unmarked
 * <time>) on any other day; over a date read from the running text, or a publication field more than a day
 * away (a neighbouring day is a timezone's difference, settled by statedLocalDay), unless the byline
 * states an update.
 */
function bylineOver(primary: Candidate, shown: HeaderDate | null): Candidate {
  if (!shown || shown.date.day === primary.date.day) return primary;
  const apart = Math.abs(Date.parse(shown.date.day) - Date.parse(primary.date.day));
  const disagrees = primary.source === "text" || apart > DAY_MS;
  if (primary.weak || (disagrees && !shown.update)) return { date: shown.date, source: "text" };
  return primary;
}

function urlCandidate(url: string): StatedDate | null {
  try {
    return dateFromUrl(url);
  } catch {
    return null;
  }
}
