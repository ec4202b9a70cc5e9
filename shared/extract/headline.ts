/**
 * Headline from JSON-LD headline and name, og:title / twitter:title, the page's <h1> (kicker removed; breadcrumb
 * entries apart) and <title> minus its site-name suffix, chosen by weighted agreement on a punctuation-free key:
 * site-name decorations stripped, meta values cut short at a stray quote joined to their full wording, the
 * wording most sources state exactly kept, and a candidate that is the winner minus a kicker preferred.
 */
import { decodeHtmlEntities } from "../text/html-entities";
import { headingCandidates, PART } from "./heading-candidates";
import { metaValue, type PageSignals } from "./page-signals";
import { hostName, titleKey as key, stripSiteName } from "./site-name";
import { type JsonObject, str } from "./structured-data";
import { cleanInline } from "./text";

export interface HeadlineInput {
  jsonLd: string | null;
  og: string | null;
  twitter: string | null;
  /** The page's <h1> texts, those inside <article>/<main> first; breadcrumb and list entries excluded. */
  h1: string[];
  /** Each <h1>'s kicker markup (heading-candidates.ts), in the order of `h1`. */
  h1Kicker?: (string | null)[];
  /** <h1> elements that are breadcrumb or list entries: a copy of the page title, not a visible headline. */
  crumbH1?: string[];
  /** The image text (alt) of an <h1> that holds only an image: the site's logo, so its name. */
  logoH1?: string[];
  jsonLdName?: string | null;
  title: string | null;
  siteName: string | null;
  /** The page's address, whose domain names the site ("lastampa.it": "La Stampa"). */
  url?: string | null;
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
 * prints it): 0.5 was chosen on four folds of five (0.7 on the other), held-out headline exact 0.902 against
 * 0.846 with the <h1> never preferred (0.888 and 0.839 before the kicker, logo and site-address rules).
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
export function similarity(a: string, b: string): number {
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
  headings: Heading[],
  declared: string[],
  seoTitle: string | null,
  threshold: number,
  ok: (h: string) => boolean,
): string | null {
  const all = seoTitle ? [...declared, seoTitle] : declared;
  if (threshold > 1 || all.length === 0) return null;
  const keys = all.map(key);
  let best: string | null = null;
  let bestSim = threshold;
  for (const { text: h, parts } of headings) {
    if (!ok(h)) continue;
    const k = key(h);
    let sim = 0;
    let closest = -1;
    for (let j = 0; j < keys.length; j++) {
      const s = similarity(k, keys[j]!);
      if (s > sim) [sim, closest] = [s, j];
    }
    // An <h1> that is a declared headline behind a kicker set off by punctuation ("Kultur : Headline",
    // "Club-Coach Name: …"): the headline proper. So when the <h1> is most like that headline, and when a
    // headline declared for sharing (JSON-LD, og, twitter) is the <h1> without its kicker although JSON-LD or
    // <title> repeats the <h1> whole; <title> alone is no evidence, its search wording often drops lead words.
    // Without the punctuation the leading words are the headline's own ("The Band …" beside "Band …").
    const proper = (j: number): boolean => {
      const d = keys[j]!;
      return d.length >= 20 && k !== d && k.endsWith(` ${d}`) && kickerBefore(h, d);
    };
    let i = closest >= 0 && proper(closest) ? closest : declared.findIndex((_, j) => proper(j));
    // An <h1> whose markup sets a kicker or a subtitle apart from the headline, when a headline declared for
    // sharing is the other parts and no source states the <h1> whole: the declared one.
    if (i < 0 && parts.length > 1 && !keys.includes(k))
      i = declared.findIndex((d) => isPartRun(key(d), parts));
    const text = i >= 0 ? all[i]! : h;
    if (sim >= bestSim && (best === null || sim > bestSim)) {
      best = text;
      bestSim = sim;
    }
  }
  return best;
}

/** `d` is the key of the heading's first or last parts, not all of them (the others a kicker or a subtitle). */
function isPartRun(d: string, parts: string[]): boolean {
  if (d.length < 20) return false;
  for (let n = 1; n < parts.length; n++) {
    if (key(parts.slice(0, n).join(" ")) === d || key(parts.slice(parts.length - n).join(" ")) === d)
      return true;
  }
  return false;
}

interface Heading {
  text: string;
  /** The heading's parts (kicker, headline, subtitle elements) in order; one when it has no inner markup. */
  parts: string[];
}

/** Separator punctuation a removed kicker leaves at either end of a heading (": Headline"). */
const LOOSE_SEPARATOR = /^[\s:|·•\-–—/]+|[\s:|·•\-–—/]+$/g;

/** A heading as headingCandidates marks it: its text to show and its parts. */
function readHeading(marked: string): Heading {
  const parts = marked
    .split(PART)
    .map((p) => cleanInline(p).replace(LOOSE_SEPARATOR, ""))
    .filter((p) => p.length > 0);
  return { text: cleanInline(marked.replaceAll(PART, "")).replace(LOOSE_SEPARATOR, ""), parts };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** `h` is a kicker, then punctuation ("-", ":", "|" …), then the text whose key is `rest`. */
function kickerBefore(h: string, rest: string): boolean {
  for (let i = 1; i < h.length; i++) {
    // A cut right after a letter or digit has no punctuation before it: skipped without computing a key.
    if (WORD_CHAR.test(h[i - 1]!) || key(h.slice(i)) !== rest) continue;
    if (/[-:|–—·•»«/]\s*$/.test(h.slice(0, i))) return true;
  }
  return false;
}

export function chooseHeadline(input: HeadlineInput, opts: HeadlineOptions = {}): string | null {
  const w = opts.weights ?? HEADLINE_WEIGHTS;
  const headings = input.h1.map(readHeading).filter((h) => h.text.length > 0 && h.text.length < 400);
  const h1s = headings.map((h) => h.text);
  const crumbs = (input.crumbH1 ?? []).map(cleanInline).filter((h) => h.length > 0 && h.length < 400);
  const raw = [input.jsonLd, input.jsonLdName, input.og, input.twitter, input.title]
    .map((x) => (x ? cleanInline(x) : ""))
    .filter(Boolean);
  const all = [...h1s, ...crumbs, ...raw];
  const siteNames = [input.siteName, ...(input.logoH1 ?? [])].filter((n): n is string => !!n);
  const host = hostName(input.url);
  const stripped = (x: string | null | undefined): string | null => {
    if (!x) return null;
    const self = cleanInline(x);
    return stripSiteName(
      x,
      siteNames,
      all.filter((o) => o !== self),
      host,
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
  const twitter = stripped(input.twitter);
  push(twitter, w.twitter);
  const title = stripped(input.title);
  // <title> counts against a side only when the two declared headlines disagree; otherwise it breaks ties.
  push(title, ld && og && ld.key !== og.key ? w.title : 0);
  if (cands.length === 0) return h1s[0] ?? null;
  const declared = [ld?.text, og?.text, name, twitter].filter(
    (d): d is string => typeof d === "string" && d.length > 0,
  );
  const visible = visibleHeadline(headings, declared, title || null, opts.h1Match ?? H1_MATCH, headingLike);
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

/**
 * The wording of a key that most candidates state exactly (punctuation and quotes differ between sources). A
 * wording with an entity left in it loses to the same wording stated plainly by another source: the publisher
 * escaped that value twice (news24's meta tags carry "&amp;#039;" where its <title> has "&#039;").
 */
function formOf(cands: Candidate[], k: string): string {
  const forms = new Map<string, { n: number; weight: number; order: number }>();
  const texts = new Set<string>();
  for (const c of cands) if (c.key === k) texts.add(c.text);
  for (const c of cands) {
    if (c.key !== k) continue;
    if (
      c.text.includes("&") &&
      texts.has(decodeHtmlEntities(c.text)) &&
      decodeHtmlEntities(c.text) !== c.text
    )
      continue;
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

/** The page's headline candidates, as chooseHeadline reads them. */
export function headlineInput(
  signals: PageSignals,
  article: JsonObject | null,
  siteName: string | null,
  url: string | null = null,
): HeadlineInput {
  return {
    jsonLd: str(article?.headline) ?? metaValue(signals, "headline", "itemprop:headline"),
    og: metaValue(signals, "og:title"),
    twitter: metaValue(signals, "twitter:title"),
    ...headingCandidates(signals.h1),
    jsonLdName: str(article?.name) ?? null,
    title: signals.title,
    siteName,
    url,
  };
}
