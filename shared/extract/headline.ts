/**
 * Headline from JSON-LD headline, og:title / twitter:title, the article's <h1> (kicker removed) and <title>
 * minus its site-name suffix: weighted votes (JSON-LD first, then og:title and <h1> by agreement), site-name
 * decorations stripped, and a candidate that is the winner minus a kicker or suffix preferred.
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

const keyCache = new Map<string, string>();

function key(s: string): string {
  const hit = keyCache.get(s);
  if (hit !== undefined) return hit;
  const k = computeKey(s);
  if (keyCache.size > 1000) keyCache.clear();
  keyCache.set(s, k);
  return k;
}

function computeKey(s: string): string {
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
  const others = (self: string | null): string[] => [...h1s, ...raw].filter((x) => x !== self);
  const stripped = (x: string | null): string | null =>
    x ? stripSiteName(x, input.siteName, others(cleanInline(x))) : null;
  const site = input.siteName ? key(input.siteName) : null;
  const h1 = h1s.find((h) => {
    const k = key(h);
    return k.length >= 8 && k !== site && !site?.includes(k);
  });
  // Votes. The JSON-LD headline is the publisher's declared one and outweighs og:title and <h1> together;
  // without it og:title and the visible <h1> vote, and twitter:title and <title> only break ties (they
  // usually copy og:title or decorate it). A kicker-free form of the winner is preferred below.
  const cands: { text: string; weight: number; order: number }[] = [];
  const push = (text: string | null, weight: number): void => {
    if (text && key(text)) cands.push({ text, weight, order: cands.length });
  };
  push(stripped(input.jsonLd), 3);
  push(stripped(input.og), 1.5);
  push(h1 ?? null, 1);
  push(stripped(input.twitter), 0);
  push(stripped(input.title), 0);
  let best: { text: string; score: number } | null = null;
  for (const c of cands) {
    let score = c.weight - c.order * 0.01;
    for (const o of cands) if (o !== c && key(o.text) === key(c.text)) score += o.weight;
    if (!best || score > best.score) best = { text: c.text, score };
  }
  if (!best) return h1s[0] ?? null;
  // A candidate that is the winner minus a kicker or a suffix is the cleaner headline.
  const bk = key(best.text);
  for (const c of cands) {
    const k = key(c.text);
    if (c.weight > 0 && k.length >= 20 && k !== bk && bk.includes(k) && k.length >= 0.5 * bk.length)
      return c.text;
  }
  return best.text;
}
