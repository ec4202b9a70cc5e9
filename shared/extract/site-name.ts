/**
 * Site-name decorations of a title ("Headline | Site", "Site - Headline", "Headline:Site"): which part is the
 * headline, told by the other sources of the headline or by a site name the page states.
 */
import { getDomain } from "tldts";
import { decodeHtmlEntities } from "../text/html-entities";
import { cleanInline } from "./text";

const SEPARATORS = /\s+(?:[|\-–—·•:»«]|::|\/\/)\s+/;

/**
 * A title's comparison key (a page compares a handful, so it is computed each time, not memoised). An entity
 * left in a value ("&#039;" in a meta tag the publisher escaped twice) reads as its character here, so the
 * value still agrees with the sources that state the text plainly; the text itself is never decoded again.
 */
export function titleKey(s: string): string {
  const lowered = decodeHtmlEntities(s).toLowerCase();
  // Most titles are ASCII, where letters and digits are [a-z0-9] and a plain class is several times faster.
  const other = NON_ASCII.test(lowered) ? NOT_ALNUM : NOT_ALNUM_ASCII;
  return lowered.replace(other, " ").trim();
}
const NON_ASCII = /[\u0080-\uffff]/;
const NOT_ALNUM_ASCII = /[^a-z0-9]+/g;
const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;

/**
 * Removes a " | Site" / "Site - " decoration when another source confirms the rest, or one side is the site
 * name: one the page states, or its address's (`host`: the registrable domain's name, "lastampa" for
 * www.lastampa.it, matched with the spaces left out: "La Stampa").
 */
export function stripSiteName(
  title: string,
  siteName: string | readonly string[] | null,
  others: string[],
  host: string | null = null,
): string {
  const t = cleanInline(title);
  const sites = (typeof siteName === "string" ? [siteName] : (siteName ?? [])).map(titleKey).filter(Boolean);
  const parts = t.split(SEPARATORS);
  if (parts.length < 2) return cutSiteAffix(t, sites);
  // A part another candidate confirms is the headline.
  const otherKeys = others.map(titleKey).filter(Boolean);
  for (let n = parts.length; n >= 1; n--) {
    for (let i = 0; i + n <= parts.length; i++) {
      const joined = cleanTitleJoin(t, parts, i, n);
      if (otherKeys.includes(titleKey(joined))) return joined;
    }
  }
  const last = titleKey(parts[parts.length - 1]!);
  const first = titleKey(parts[0]!);
  for (const site of sites) {
    if (last === site || site.includes(last) || last.includes(site))
      return cleanTitleJoin(t, parts, 0, parts.length - 1);
    if (first === site || site.includes(first)) return cleanTitleJoin(t, parts, 1, parts.length - 1);
  }
  if (host) {
    const before = cleanTitleJoin(t, parts, 0, parts.length - 1);
    if (namesHost(last, host, before)) return before;
    const after = cleanTitleJoin(t, parts, 1, parts.length - 1);
    if (namesHost(first, host, after)) return after;
  }
  return cutSiteAffix(t, sites);
}

/**
 * A title part that names the site of the address: its letters are the domain's name, perhaps with a word or a
 * suffix ("Python Wiki" on python.org, "MacTechNews.de"), or contain a name of five letters or more (not "news")
 * in a part shorter than the headline beside it ("… - European Championships Munich 2022"); a longer part that
 * mentions the site is the headline ("Take care - comwrap at the fair 2018" on comwrap.com stays whole).
 */
function namesHost(partKey: string, host: string, rest: string): boolean {
  const p = partKey.replace(/ /g, "");
  if (!p.includes(host)) return false;
  return (
    p.length <= host.length + 4 || (host.length >= 5 && p.length < titleKey(rest).replace(/ /g, "").length)
  );
}

/** The name of a page address's registrable domain ("lastampa" for https://www.lastampa.it/…), or null. */
export function hostName(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const domain = getDomain(url);
    const name = domain ? titleKey(domain.slice(0, domain.indexOf("."))).replace(/ /g, "") : "";
    return name.length >= 2 ? name : null;
  } catch {
    return null;
  }
}

/**
 * A separator written without spaces ("Headline:Site", "Headline｜Site", CJK titles mostly); not a hyphen or a
 * slash, which join words ("Site-Topic: …").
 */
const TIGHT_SEPARATOR = /[|·•:»«｜：]/;

/**
 * `t` without a site name joined to it by a separator without spaces, at its end or start: only a name the
 * page states elsewhere (og:site_name, the publisher, a logo) is cut, as a colon is also a headline's own.
 */
function cutSiteAffix(t: string, sites: string[]): string {
  const k = titleKey(t);
  for (const site of sites) {
    if (k.length <= site.length + 3) continue;
    if (k.endsWith(` ${site}`) || k.endsWith(site)) {
      const cut = cutAt(t, t.length - siteSpan(t, site, true), -1);
      if (cut) return cut;
    }
    if (k.startsWith(`${site} `) || k.startsWith(site)) {
      const cut = cutAt(t, siteSpan(t, site, false), 1);
      if (cut) return cut;
    }
  }
  return t;
}

/** The length of the end (or start) of `t` whose key is `site`, or 0. */
function siteSpan(t: string, site: string, atEnd: boolean): number {
  for (let n = 1; n <= t.length; n++) {
    const piece = atEnd ? t.slice(t.length - n) : t.slice(0, n);
    const k = titleKey(piece);
    if (k === site) return n;
    if (k.length > site.length) break;
  }
  return 0;
}

/** `t` with the site name removed at `at` when a separator joins it (dir -1: name at the end). */
function cutAt(t: string, at: number, dir: -1 | 1): string | null {
  if (at <= 0 || at >= t.length) return null;
  const rest = dir < 0 ? t.slice(0, at).trimEnd() : t.slice(at).trimStart();
  const sep = dir < 0 ? rest.slice(-1) : rest.slice(0, 1);
  if (!TIGHT_SEPARATOR.test(sep)) return null;
  const out = (dir < 0 ? rest.slice(0, -1) : rest.slice(1)).trim();
  return titleKey(out) ? out : null;
}

/** Rejoins parts i..i+n-1 using the original separators. */
function cleanTitleJoin(full: string, parts: string[], i: number, n: number): string {
  if (n <= 0) return full;
  const first = parts[i]!;
  const lastPart = parts[i + n - 1]!;
  let start = 0;
  for (let k = 0; k < i; k++) start = full.indexOf(parts[k]!, start) + parts[k]!.length;
  const s = full.indexOf(first, start);
  let end = s;
  for (let k = i; k < i + n; k++) end = full.indexOf(parts[k]!, end) + parts[k]!.length;
  return full.slice(s, end || s + lastPart.length).trim();
}
