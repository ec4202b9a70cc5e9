/**
 * The article's authors, names only. Three kinds of evidence, in order: the article's structured data
 * (JSON-LD author/creator, people referenced by @id resolved through the page's @graph), author meta tags
 * (author, article:author, parsely-author, dc.creator, sailthru.author, byl, Parse.ly page JSON), and byline
 * markup (rel="author", itemprop="author", a class/id naming a byline, author or writer, a link to an author's
 * page) nearest the headline. An author that is the publication itself (an Organization, or the site's own
 * name) is kept only when no source names a person: a byline names people, the masthead is not one. Each
 * string any of them gives is read as names by byline-names.ts.
 */
import { getDomain } from "tldts";
import { isAgency } from "./agencies";
import { bylineLineAfter } from "./byline-line";
import { namesFromByline } from "./byline-names";
import { type AnyNode, type Element, rawText } from "./dom";
import { listItems } from "./list-items";
import type { PageSignals } from "./page-signals";
import { type JsonObject, names, typesOf } from "./structured-data";
import { cleanInline } from "./text";

export interface AuthorInput {
  article: JsonObject | null;
  /** Every JSON-LD object on the page (for @id references). */
  all: JsonObject[];
  signals: PageSignals;
  /** og:site_name / publisher names: an author equal to one of them is the masthead, not a byline. */
  siteNames: string[];
  /** The page's URL: its host's labels name the site too ("abcnews.go.com" → "ABC News"). */
  url: string;
  /** The chosen headline, to find the byline next to it. */
  headline: string | null;
}

const AUTHOR_META = [
  "author",
  "article:author",
  "parsely-author",
  "dc.creator",
  "dcterms.creator",
  "sailthru.author",
  "byl",
  "itemprop:author",
];

/** How far (in elements) a byline may sit from the headline: past it, it is a teaser's or a comment's. */
const BYLINE_REACH = 400;

const ORG_TYPES = /organization|corporation|newsmediaorganization|publisher|brand/;
const key = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "")
    .trim();

interface Found {
  people: string[];
  orgs: string[];
}

/** JSON-LD author/creator values: persons and organisations apart; `{"@id"}` references resolved. */
function fromStructuredData(input: AuthorInput, into: Found): void {
  const { article, all } = input;
  if (!article) return;
  const byId = new Map<string, JsonObject>();
  for (const o of all) {
    const id = typeof o["@id"] === "string" ? o["@id"] : null;
    if (id && (o.name || o.givenName)) byId.set(id, o);
  }
  const values = [article.author, article.creator].flatMap((v) => (Array.isArray(v) ? v : [v]));
  for (const v of values) {
    if (v === undefined || v === null) continue;
    let o: unknown = v;
    if (typeof v === "object" && !Array.isArray(v)) {
      const ref = (v as JsonObject)["@id"];
      if (typeof ref === "string" && !(v as JsonObject).name) o = byId.get(ref) ?? v;
    }
    const isOrg =
      typeof o === "object" && o !== null && typesOf(o as JsonObject).some((t) => ORG_TYPES.test(t));
    for (const n of names(o))
      for (const name of namesFromByline(n)) (isOrg ? into.orgs : into.people).push(name);
  }
}

function fromMeta(s: PageSignals, into: Found): void {
  for (const k of AUTHOR_META) {
    for (const v of s.meta.get(k) ?? []) into.people.push(...namesFromByline(v));
  }
  const page = s.meta.get("parsely-page")?.[0];
  if (page) {
    try {
      const v = JSON.parse(page) as JsonObject;
      for (const n of names(v.authors ?? v.author)) into.people.push(...namesFromByline(n));
    } catch {
      // Not JSON: no evidence.
    }
  }
}

/**
 * The <h1> the byline belongs to: the one stating the headline (a page may have teaser <h1>s, or a logo in
 * one), else the first inside <article>/<main>, else the first.
 */
function headlineIndex(s: PageSignals, headline: string | null): number {
  const want = headline ? key(headline) : "";
  if (want.length >= 8)
    for (let i = 0; i < s.h1.length; i++) {
      const k = key(rawText(s.h1[i]!));
      if (k.length >= 8 && (k.includes(want) || want.includes(k))) return i;
    }
  for (let i = 0; i < s.h1.length; i++) {
    for (let p = s.h1[i]!.parent; p && p.type === "tag"; p = p.parent) {
      const name = (p as Element).name;
      if (name === "article" || name === "main") return i;
    }
  }
  return s.h1.length > 0 ? 0 : -1;
}

function headlineAt(s: PageSignals, headline: string | null): number {
  const i = headlineIndex(s, headline);
  return i < 0 ? -1 : s.h1At[i]!;
}

/** Names in the labelled byline line after the headline (byline-line.ts), capitalised, not the site's. */
function fromBylineLine(
  s: PageSignals,
  headline: string | null,
  isSite: (name: string) => boolean,
): string[] {
  const i = headlineIndex(s, headline);
  const line = bylineLineAfter(i < 0 ? null : s.h1[i]!);
  // A label or a tag inside ("Kategorie: Pflege", "_Newsletter") is a page's metadata line, not a byline.
  if (!line || /[:_][^:]*[:_]|\p{L}:\s/u.test(line.replace(/^[^:]{0,12}:/u, ""))) return [];
  // A lone acronym ("NDR") is a broadcaster's or an institute's credit, not a person.
  return namesFromByline(line).filter((n) => isCapitalised(n) && !isSite(n) && !/^\p{Lu}{2,6}$/u.test(n));
}

/**
 * Inside comments, navigation or an aside: a commenter's or a teaser's byline. A declared author
 * (itemprop=author) in a <nav> is the article's: some pages mark up their byline bar as navigation.
 */
function outsideArticle(el: Element): boolean {
  const declared = /author/i.test(el.attribs.itemprop ?? "");
  for (let p = el.parent; p && p.type === "tag"; p = p.parent) {
    const e = p as Element;
    if ((e.name === "nav" && !declared) || e.name === "aside") return true;
    if (/comment/i.test(`${e.attribs.class ?? ""} ${e.attribs.id ?? ""}`)) return true;
  }
  return false;
}

function contains(outer: Element, inner: Element): boolean {
  for (let p: AnyNode | null = inner.parent; p; p = p.parent) if (p === outer) return true;
  return false;
}

/** Links to another site inside a byline (the author's social profiles): their text is not a name. */
function offSiteLinkTexts(el: Element, site: string | null, out: string[] = [], depth = 0): string[] {
  if (depth > 8) return out;
  for (const c of el.children) {
    if (c.type !== "tag") continue;
    const e = c as Element;
    const href = e.name === "a" ? e.attribs.href : undefined;
    if (href && /^(?:https?:)?\/\//i.test(href)) {
      const other = getDomain(href.startsWith("//") ? `http:${href}` : href);
      if (other && site && other !== site) {
        const t = cleanInline(rawText(e));
        if (t) out.push(t);
        continue;
      }
    }
    offSiteLinkTexts(e, site, out, depth + 1);
  }
  return out;
}

/** The itemprop=name element below a byline element (a <meta>/<link> states it in content/value). */
function microdataName(el: Element, depth = 0): Element | null {
  for (const c of el.children) {
    if (c.type !== "tag") continue;
    const e = c as Element;
    if (e.attribs.itemprop === "name") return e;
    if (depth < 3) {
      const below = microdataName(e, depth + 1);
      if (below) return below;
    }
  }
  return null;
}

/**
 * Names in one byline element: its itemprop=name descendant first, else its text without off-site link texts.
 * Text in a plain byline box must be capitalised where the script has case; microdata and rel=author are
 * declared, so taken as written ("dpa").
 */
function bylineNames(el: Element, site: string | null): string[] {
  const nameEl = microdataName(el);
  let text = cleanInline(
    nameEl ? (nameEl.attribs.content ?? nameEl.attribs.value ?? rawText(nameEl)) : rawText(el),
  );
  if (text.length > 300) return [];
  for (const t of offSiteLinkTexts(el, site)) text = text.replace(t, " ");
  const declared = /author|creator/i.test(`${el.attribs.itemprop ?? ""} ${el.attribs.rel ?? ""}`);
  const names = namesFromByline(text);
  return declared ? names : names.filter(isCapitalised);
}

/**
 * Byline markup: the innermost candidates (a link inside a byline box names the person more cleanly than the
 * box), taken from the first group after the headline, else the nearest group above it.
 */
function fromMarkup(
  s: PageSignals,
  headline: string | null,
  site: string | null,
  isSite: (name: string) => boolean,
): string[] {
  const h1 = headlineAt(s, headline);
  // Teasers' and comments' bylines repeat one structure; the article's stands alone.
  const listed = listItems(s.bylines);
  const cands: { el: Element; at: number; names: string[] }[] = [];
  s.bylines.forEach((el, i) => {
    const at = s.bylineAt[i]!;
    if ((h1 < 0 || Math.abs(at - h1) <= BYLINE_REACH) && !outsideArticle(el) && !listed.has(el))
      cands.push({ el, at, names: bylineNames(el, site).filter((n) => !isSite(n)) });
  });
  const withNames = cands.filter((c) => c.names.length > 0);
  const named = withNames.filter((c) => !withNames.some((o) => o !== c && contains(c.el, o.el)));
  if (named.length === 0) return [];
  const after = named.filter((c) => c.at > h1);
  const anchor = after[0] ?? named[named.length - 1]!;
  // The byline group: the anchor and the candidates beside it in the same box (several authors, each in a
  // link), never a neighbouring teaser's.
  const box = anchor.el.parent?.parent ?? anchor.el.parent;
  const group = named.filter(
    (c) => c === anchor || (box && contains(box as Element, c.el) && Math.abs(c.at - anchor.at) <= 12),
  );
  // Where the group links its names, the links are the names: the box's other text is a role, a bio or a
  // flyout ("News & Culture Writer", "View author archive" after the name's own link to the same page).
  const links = group.filter((c) => c.el.name === "a" && c.el.attribs.href);
  if (links.length === 0) return group.flatMap((c) => c.names);
  const hrefs = new Set<string>();
  return links.flatMap((c) => {
    const href = c.el.attribs.href!.replace(/[?#].*$/, "").replace(/\/$/, "");
    // The same author page, or a page under it (its feed).
    if ([...hrefs].some((h) => href === h || href.startsWith(`${h}/`))) return [];
    hrefs.add(href);
    return c.names;
  });
}

/** Visible byline text in a cased script names people with capitals ("capital", "15 min" are not names). */
function isCapitalised(name: string): boolean {
  return !/\p{Ll}/u.test(name) || /\p{Lu}/u.test(name);
}

function unique(list: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const a of list) {
    const k = a.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(a);
  }
  return out;
}

function registrable(url: string): string | null {
  try {
    return getDomain(url);
  } catch {
    return null;
  }
}

function hostLabels(url: string): string[] {
  try {
    return new URL(url).hostname
      .split(".")
      .slice(0, -1)
      .filter((l) => l !== "www");
  } catch {
    return [];
  }
}

/** The holder a copyright meta tag names ("Copyright (c) Condé Nast 2022"): the publisher, not a byline. */
function copyrightHolder(s: PageSignals): string {
  const raw = s.meta.get("copyright")?.[0] ?? "";
  return raw.replace(/copyright|\(c\)|©|\d{4}|all rights reserved/giu, " ").trim();
}

export interface Byline {
  /** People. */
  authors: string[];
  /** Organisations credited: news agencies the byline names, the structured data's Organization authors,
   * and the publication when it is the only name the page gives. */
  credit: string[];
}

export function extractAuthors(input: AuthorInput): Byline {
  const names = [...input.siteNames, ...hostLabels(input.url), copyrightHolder(input.signals)];
  const sites = new Set(names.map(key).filter((k) => k.length >= 3));
  const isSite = (n: string): boolean => {
    const k = key(n);
    return sites.has(k) || [...sites].some((s) => s.length >= 4 && (k.includes(s) || s.includes(k)));
  };
  const found: Found = { people: [], orgs: [] };
  fromStructuredData(input, found);
  const meta: Found = { people: [], orgs: [] };
  fromMeta(input.signals, meta);
  // The evidence in order of trust, each read only when the ones before name nobody (or a handle needs
  // spelling out): the markup walks cost ~3 % of an extraction.
  const sources: (() => string[])[] = [
    () => found.people,
    () => meta.people,
    () => fromMarkup(input.signals, input.headline, registrable(input.url), isSite),
    () => fromBylineLine(input.signals, input.headline, isSite),
  ];
  const read: (string[] | undefined)[] = [];
  const tier = (i: number): string[] => {
    read[i] ??= sources[i]!();
    return read[i];
  };
  const orgs = found.orgs.filter((n) => !isAgency(n));
  for (let i = 0; i < sources.length; i++) {
    const names = unique(tier(i).filter((n) => !isSite(n)));
    const people = names.filter((n) => !isAgency(n));
    const agencies = [...found.orgs, ...names].filter(isAgency);
    const later = (): string[][] => sources.slice(i + 1).map((_, j) => tier(i + 1 + j));
    if (people.length > 0)
      return {
        authors: people.map((n) => spelledOut(n, later)),
        credit: unique([...agencies, ...orgs]),
      };
    if (agencies.length > 0) return { authors: [], credit: unique([...agencies, ...orgs]) };
  }
  // No person: the organisation the page names as author (the masthead), as a credit.
  return { authors: [], credit: unique([...found.orgs, ...found.people, ...meta.people]).slice(0, 1) };
}

/** A user name rather than a written name: one lower-case Latin token ("mikecason"). */
const HANDLE = /^[a-z][a-z0-9._-]{3,}$/;

/**
 * A handle (an account name in a meta tag) replaced by the same name as a later source writes it
 * ("mikecason" → "Mike Cason" from the byline): the same letters, spaced and capitalised.
 */
function spelledOut(name: string, later: () => string[][]): string {
  if (!HANDLE.test(name)) return name;
  const k = key(name);
  for (const tier of later()) for (const n of tier) if (n !== name && key(n) === k) return n;
  return name;
}
