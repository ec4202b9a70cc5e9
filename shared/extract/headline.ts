/**
 * Headline by agreement among JSON-LD headline, og:title / twitter:title, the article's <h1> and <title>
 * minus its site-name suffix. A candidate that others confirm wins; site-name decorations are stripped.
 */
import { cleanInline } from "./text";

export interface HeadlineInput {
  jsonLd: string | null;
  og: string | null;
  twitter: string | null;
  h1: string[];
  title: string | null;
  siteName: string | null;
}

const SEPARATORS = /\s+(?:[|\-–—·•:»«]|::|\/\/)\s+/;

function key(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Removes a " | Site" / "Site - " decoration when one side is the site name or the shorter side. */
export function stripSiteName(title: string, siteName: string | null, others: string[]): string {
  const t = cleanInline(title);
  const parts = t.split(SEPARATORS);
  if (parts.length < 2) return t;
  const site = siteName ? key(siteName) : null;
  // A part another candidate confirms is the headline.
  const otherKeys = others.map(key).filter(Boolean);
  for (let n = parts.length; n >= 1; n--) {
    for (let i = 0; i + n <= parts.length; i++) {
      const joined = cleanTitleJoin(t, parts, i, n);
      if (otherKeys.includes(key(joined))) return joined;
    }
  }
  if (site) {
    const last = parts[parts.length - 1]!;
    const first = parts[0]!;
    if (key(last) === site || site.includes(key(last)) || key(last).includes(site))
      return cleanTitleJoin(t, parts, 0, parts.length - 1);
    if (key(first) === site || site.includes(key(first)))
      return cleanTitleJoin(t, parts, 1, parts.length - 1);
  }
  // Without a site name: drop a short trailing part (" | Example News").
  const last = parts[parts.length - 1]!;
  const rest = cleanTitleJoin(t, parts, 0, parts.length - 1);
  if (last.length < 30 && rest.length > last.length * 1.5) return rest;
  return t;
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

export function chooseHeadline(input: HeadlineInput): string | null {
  const h1s = input.h1.map(cleanInline).filter((h) => h.length > 0 && h.length < 400);
  const raw = [input.jsonLd, input.og, input.twitter, input.title]
    .map((x) => (x ? cleanInline(x) : ""))
    .filter(Boolean);
  const candidates: { text: string; weight: number }[] = [];
  const add = (text: string | null, weight: number): void => {
    if (text && text.length > 0) candidates.push({ text, weight });
  };
  const others = (self: string | null): string[] => [...h1s, ...raw].filter((x) => x !== self);
  if (input.jsonLd) add(stripSiteName(input.jsonLd, input.siteName, others(cleanInline(input.jsonLd))), 3);
  if (input.og) add(stripSiteName(input.og, input.siteName, others(cleanInline(input.og))), 2.5);
  if (input.twitter)
    add(stripSiteName(input.twitter, input.siteName, others(cleanInline(input.twitter))), 1.5);
  for (const h of h1s.slice(0, 3)) add(h, 2);
  if (input.title) add(stripSiteName(input.title, input.siteName, others(cleanInline(input.title))), 1);
  if (candidates.length === 0) return null;
  let best: { text: string; weight: number } | null = null;
  let bestScore = -1;
  for (const c of candidates) {
    const k = key(c.text);
    if (!k) continue;
    let score = c.weight;
    for (const o of candidates) if (o !== c && key(o.text) === k) score += o.weight + 1;
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best?.text ?? null;
}
