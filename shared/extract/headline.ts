/**
 * Headline from JSON-LD headline and name, og:title / twitter:title, the page's <h1> (kicker removed; breadcrumb
 * entries apart) and <title> minus its site-name suffix, chosen by weighted agreement on a punctuation-free key:
 * site-name decorations stripped, meta values cut short at a stray quote joined to their full wording, the
 * wording most sources state exactly kept, and a candidate that is the winner minus a kicker preferred.
 */
import { type Element, textOf } from "./dom";
import { metaValue, type PageSignals } from "./page-signals";
import { type JsonObject, str } from "./structured-data";
import { cleanInline } from "./text";

export interface HeadlineInput {
  jsonLd: string | null;
  og: string | null;
  twitter: string | null;
  /** The page's <h1> texts, those inside <article>/<main> first; breadcrumb and list entries excluded. */
  h1: string[];
  /** <h1> elements that are breadcrumb or list entries: a copy of the page title, not a visible headline. */
  crumbH1?: string[];
  jsonLdName?: string | null;
  title: string | null;
  siteName: string | null;
}

const SEPARATORS = /\s+(?:[|\-–—·•:»«]|::|\/\/)\s+/;

/** A title's comparison key (a page compares a handful, so it is computed each time, not memoised). */
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

/**
 * Vote weights. JSON-LD headline and og:title are the two headlines a publisher declares; the visible <h1>
 * (not a breadcrumb entry) and JSON-LD `name` second them; twitter:title mostly copies og:title. <title> is the
 * search-engine headline: when the declared headlines disagree, the one that merely repeats <title> is the SEO
 * variant and the other one is the headline the page shows and shares, so agreeing with <title> costs a vote.
 */
export const HEADLINE_WEIGHTS = {
  jsonLd: 2,
  og: 2,
  name: 1.5,
  h1: 1,
  crumb: 0,
  twitter: 0.5,
  title: -1,
};

interface Candidate {
  text: string;
  key: string;
  weight: number;
  order: number;
  isH1: boolean;
}

/**
 * How alike (Dice coefficient of character bigrams of the punctuation-free keys) a visible <h1> must be to a
 * declared headline (JSON-LD, og/twitter, <title>) to count as this article's headline rather than a section
 * label, a logo or a teaser. Chosen by site-grouped cross-validation on mercury and fundus (`npm run eval`
 * prints it): 0.5 was chosen on four folds of five (0.7 on the other), held-out headline exact 0.888 against
 * 0.839 with the <h1> never preferred.
 */
export const H1_MATCH = 0.5;

export interface HeadlineOptions {
  weights?: typeof HEADLINE_WEIGHTS;
  /** Similarity an <h1> needs to be preferred (above 1: never, the vote decides). */
  h1Match?: number;
}

function bigrams(k: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + 1 < k.length; i++) {
    const g = k.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient of the two keys' character bigrams: 1 for equal keys, 0 for nothing in common. */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const x = bigrams(a);
  let shared = 0;
  const y = bigrams(b);
  for (const [g, n] of y) shared += Math.min(n, x.get(g) ?? 0);
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

/**
 * The visible headline: the <h1> most like a declared headline, when it is alike enough. Publishers write
 * the social and search titles for other pages (a feed, a results list); the <h1> is what the article shows.
 */
function visibleHeadline(
  h1s: string[],
  declared: string[],
  threshold: number,
  ok: (h: string) => boolean,
): string | null {
  if (threshold > 1 || declared.length === 0) return null;
  const keys = declared.map(key);
  let best: string | null = null;
  let bestSim = threshold;
  for (const h of h1s) {
    if (!ok(h)) continue;
    const k = key(h);
    let sim = 0;
    for (const d of keys) sim = Math.max(sim, similarity(k, d));
    // An <h1> that is a declared headline behind a kicker ("Kultur : Headline", "Club-Coach Name: …"): the
    // headline proper, even when another source (JSON-LD, <title>) repeats the <h1> with its kicker.
    const i = keys.findIndex((d) => d.length >= 20 && k !== d && k.endsWith(` ${d}`));
    const text = i >= 0 ? declared[i]! : h;
    if (sim >= bestSim && (best === null || sim > bestSim)) {
      best = text;
      bestSim = sim;
    }
  }
  return best;
}

export function chooseHeadline(input: HeadlineInput, opts: HeadlineOptions = {}): string | null {
  const w = opts.weights ?? HEADLINE_WEIGHTS;
  const h1s = input.h1.map(cleanInline).filter((h) => h.length > 0 && h.length < 400);
  const crumbs = (input.crumbH1 ?? []).map(cleanInline).filter((h) => h.length > 0 && h.length < 400);
  const raw = [input.jsonLd, input.jsonLdName, input.og, input.twitter, input.title]
    .map((x) => (x ? cleanInline(x) : ""))
    .filter(Boolean);
  const all = [...h1s, ...crumbs, ...raw];
  const stripped = (x: string | null | undefined): string | null => {
    if (!x) return null;
    const self = cleanInline(x);
    return stripSiteName(
      x,
      input.siteName,
      all.filter((o) => o !== self),
    );
  };
  const site = input.siteName ? key(input.siteName) : null;
  const headingLike = (h: string): boolean => {
    const k = key(h);
    return k.length >= 8 && k !== site && !site?.includes(k);
  };
  const cands: Candidate[] = [];
  const push = (text: string | null | undefined, weight: number, isH1 = false): Candidate | null => {
    const k = text ? key(text) : "";
    if (!text || !k) return null;
    const c = { text, key: k, weight, order: cands.length, isH1 };
    cands.push(c);
    return c;
  };
  const ld = push(stripped(input.jsonLd), w.jsonLd);
  const og = push(stripped(input.og), w.og);
  // JSON-LD `name` is often a slug or an id: only a name of several words votes.
  const name = stripped(input.jsonLdName);
  push(name && /\S\s+\S/.test(name) ? name : null, w.name);
  push(h1s.find(headingLike), w.h1, true);
  push(crumbs.find(headingLike), w.crumb);
  push(stripped(input.twitter), w.twitter);
  // <title> counts against a side only when the two declared headlines disagree; otherwise it breaks ties.
  push(stripped(input.title), ld && og && ld.key !== og.key ? w.title : 0);
  if (cands.length === 0) return h1s[0] ?? null;
  const declared = [ld?.text, og?.text, name, stripped(input.twitter), stripped(input.title)].filter(
    (d): d is string => typeof d === "string" && d.length > 0,
  );
  const visible = visibleHeadline(h1s, declared, opts.h1Match ?? H1_MATCH, headingLike);
  if (visible !== null) return visible;
  // A candidate cut short (meta values truncated at a length or at a stray quote) votes for the full wording.
  for (const c of cands) {
    for (const o of cands) {
      if (c.key.length >= 20 && o.text.length > c.text.length && isCutShort(c.text, o.text)) {
        c.key = o.key;
        c.text = o.text;
        break;
      }
    }
  }
  // Score each distinct key: the sum of the votes of every candidate stating it (ties: declared order).
  let best: { key: string; score: number; order: number } | null = null;
  const scores = new Map<string, { score: number; order: number }>();
  for (const c of cands) {
    const s = scores.get(c.key);
    if (s) s.score += c.weight;
    else scores.set(c.key, { score: c.weight, order: c.order });
  }
  for (const [k, s] of scores) if (!best || s.score > best.score) best = { key: k, ...s };
  const bk = best!.key;
  // A voting candidate that is the winner minus a leading kicker ("Kicker: Headline") is the headline proper, and
  // so is the visible <h1> when the winner is it plus a trailing qualifier (", Place", "|Portal", " – Topic").
  for (const c of cands) {
    if (c.weight <= 0 || c.key.length < 20 || c.key === bk || c.key.length < 0.5 * bk.length) continue;
    if (bk.endsWith(` ${c.key}`) || (c.isH1 && bk.startsWith(`${c.key} `))) return formOf(cands, c.key);
  }
  return formOf(cands, bk);
}

/**
 * `short` is `full` cut off: a meta attribute that ended at an unescaped quote inside the headline, or a value
 * shortened with an ellipsis.
 */
function isCutShort(short: string, full: string): boolean {
  if (full.startsWith(short)) return /^\s*"/.test(full.slice(short.length));
  const m = /^(.{20,}?)\s*(?:\.\.\.|…)$/.exec(short);
  return m !== null && full.startsWith(m[1]!) && full.length > m[1]!.length + 3;
}

/** The wording of a key that most candidates state exactly (punctuation and quotes differ between sources). */
function formOf(cands: Candidate[], k: string): string {
  const forms = new Map<string, { n: number; weight: number; order: number }>();
  for (const c of cands) {
    if (c.key !== k) continue;
    const f = forms.get(c.text);
    if (f) {
      f.n++;
      f.weight = Math.max(f.weight, c.weight);
    } else forms.set(c.text, { n: 1, weight: c.weight, order: c.order });
  }
  let best: [string, { n: number; weight: number; order: number }] | null = null;
  for (const e of forms) {
    const [, f] = e;
    if (!best || f.n > best[1].n || (f.n === best[1].n && f.order < best[1].order)) best = e;
  }
  return best![0];
}

const KICKER =
  /(?:^|[-_ ])(?:kicker|overline|topline|dachzeile|eyebrow|roofline|supertitle|pretitle|spitzmarke|rubric)(?:$|[-_ ])/i;

/** Heading text without kicker/overline parts and screen-reader-only separators. */
function headingText(el: Element): string {
  return textOf(el, { skip: isKickerOrHidden });
}

function isKickerOrHidden(e: Element): boolean {
  const ci = `${e.attribs.class ?? ""} ${e.attribs.id ?? ""}`;
  return (
    KICKER.test(ci) || e.attribs["aria-hidden"] === "true" || /offscreen|sr-only|visually-hidden/i.test(ci)
  );
}

const CRUMB = /breadcrumb/i;

/**
 * The page's <h1> texts: those inside <article>/<main> first, then the rest in page order. An <h1> inside
 * <nav>, a list item or a breadcrumb trail is the trail's last entry (a copy of the page title), kept apart.
 */
export function headingCandidates(h1s: Element[]): { h1: string[]; crumbH1: string[] } {
  const inside: string[] = [];
  const outside: string[] = [];
  const crumbH1: string[] = [];
  for (const el of h1s) {
    let inArticle = false;
    let crumb = false;
    let depth = 0;
    for (let p = el.parent; p && p.type === "tag"; p = p.parent) {
      const e = p as Element;
      depth++;
      if (e.name === "article" || e.name === "main") inArticle = true;
      // Only the heading's close surroundings: an unclosed <li> or <nav> far up can wrap a whole page.
      else if (
        !inArticle &&
        depth <= 6 &&
        (e.name === "nav" ||
          e.name === "li" ||
          CRUMB.test(e.attribs.class ?? "") ||
          CRUMB.test(e.attribs.id ?? "") ||
          CRUMB.test(e.attribs.itemtype ?? ""))
      )
        crumb = true;
    }
    const text = headingText(el);
    if (crumb) crumbH1.push(text);
    else (inArticle ? inside : outside).push(text);
  }
  return { h1: [...inside, ...outside], crumbH1 };
}

/** The page's headline candidates, as chooseHeadline reads them. */
export function headlineInput(
  signals: PageSignals,
  article: JsonObject | null,
  siteName: string | null,
): HeadlineInput {
  return {
    jsonLd: str(article?.headline) ?? metaValue(signals, "headline", "itemprop:headline"),
    og: metaValue(signals, "og:title"),
    twitter: metaValue(signals, "twitter:title"),
    ...headingCandidates(signals.h1),
    jsonLdName: str(article?.name) ?? null,
    title: signals.title,
    siteName,
  };
}
