/**
 * Site-name decorations of a title ("Headline | Site", "Site - Headline", "Headline:Site"): which part is the
 * headline, told by the other sources of the headline or by a site name the page states.
 */
import { cleanInline } from "./text";

const SEPARATORS = /\s+(?:[|\-–—·•:»«]|::|\/\/)\s+/;

/** A title's comparison key (a page compares a handful, so it is computed each time, not memoised). */
export function titleKey(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Removes a " | Site" / "Site - " decoration when one side is the site name or the shorter side. */
export function stripSiteName(
  title: string,
  siteName: string | readonly string[] | null,
  others: string[],
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
  return cutSiteAffix(t, sites);
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
