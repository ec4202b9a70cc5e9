/**
 * Main text of the page.
 * 1. Boilerplate goes by tag (nav, aside, footer, form, figure, …), hidden state and class/id signals (share,
 *    related, newsletter, comments, promo, caption, byline, …), unless the element holds most of the prose.
 * 2. The container is chosen readability-style: paragraph scores (length, commas) pushed to ancestors,
 *    discounted by link density, with <article>, itemprop=articleBody and body-like class names as bonuses.
 * 3. It grows to cover the text: same-class blocks split around ads, an ancestor holding much more prose,
 *    siblings that continue the text, and the lead paragraph left in the (dropped) article header.
 * 4. Inside, link lists, widget blocks (conditional cleaning), one-line promos, datelines and the headline
 *    are left out; paragraphs come out separated by blank lines.
 * When class signals empty the page, a second pass uses tags and hidden state only.
 */

import { scanDates } from "./date-parse";
import { type AnyNode, type Element, isElement, rawText } from "./dom";
import type { SignalCollector } from "./page-signals";
import { cleanInline } from "./text";

const DROP_TAGS = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "object",
  "embed",
  "video",
  "audio",
  "picture",
  "img",
  "button",
  "select",
  "option",
  "input",
  "textarea",
  "nav",
  "aside",
  "footer",
  "figure",
  "figcaption",
  "dialog",
  "menu",
  "map",
  "head",
  "title",
  "meta",
  "link",
]);
/** Dropped unless they hold most of the page's paragraphs (some sites wrap everything in them). */
const GUARDED_DROP_TAGS = new Set(["header", "form"]);

const BLOCK_TAGS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "table",
  "tbody",
  "thead",
  "tfoot",
  "tr",
  "td",
  "th",
  "blockquote",
  "pre",
  "header",
  "footer",
  "hr",
  "address",
  "center",
  "details",
  "summary",
  "fieldset",
  "body",
  "figure",
  "caption",
  "legend",
]);
const LEAD =
  /(?:^|[-_ ])(?:lead|leader|lede|intro|introduction|standfirst|subtitle|sub-?title|subheadline|dek|deck|summary|teaser-?text|vorspann|article-?intro|excerpt|abstract|chapeau|chapo|entradilla|occhiello|sommario)(?:$|[-_ ])/;
const LEAD_SKIP = new Set([
  "script",
  "style",
  "nav",
  "aside",
  "footer",
  "figure",
  "figcaption",
  "form",
  "button",
  "noscript",
  "h1",
]);

/** A paragraph-like element: no block-level children (a whole header block is not a lead). */
function isLeafBlock(el: Element): boolean {
  for (const c of el.children) {
    if (c.type === "tag" && BLOCK_TAGS.has((c as Element).name) && (c as Element).name !== "p") return false;
  }
  return el.name !== "span" && el.name !== "a";
}

function isNegativeLead(ci: string): boolean {
  return /(?:^|[-_ ])(?:related|teaser-?list|teasers|more|nav|menu|comment|share|promo)(?:$|[-_ ])/.test(ci);
}

const WIDEN_GAIN = 2;
const WIDEN_MAX_LINK_DENSITY = 0.2;

/** Blocks inside the container that conditional cleaning may drop. */
const CONDITIONAL = new Set(["div", "section", "ul", "ol", "table", "form", "fieldset", "aside"]);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

const NEGATIVE =
  /(?:^|[-_])(?:share|sharing|sharebar|social|socials|newsletter|related|relatedposts|recommend|recommended|recommendations|promo|promos|promoted|advert|advertisement|advertising|ads?|adv|adslot|adunit|sponsor|sponsored|cookie|cookies|consent|gdpr|subscribe|subscription|signup|breadcrumbs?|comments?|commentlist|disqus|outbrain|taboola|byline|caption|captions|credit|credits|tags|tagcloud|author|authors|bio|readmore|trending|popular|mostread|most|sidebar|pagination|pager|modal|popup|overlay|banner|footer|header|masthead|nav|navbar|navigation|menu|toolbar|skip|sronly|sr-only|visually-hidden|visuallyhidden|tooltip|teaser|teasers|rating|meta|metadata|dateline|timestamp|date|published|updated|infobox|toc|jump|more|next|prev|previous|follow|login|paywall|pw|inline|embed|slideshow|carousel|thumbnail|thumb|icon|logo|partner|partners|affiliate|shop|shopping|cta)(?:$|[-_])/;
const POSITIVE =
  /(?:^|[-_])(?:article|articlebody|body|content|contents|entry|hentry|main|post|story|text|blog|prose|richtext|copy|paragraph|paragraphs|page|lead|intro|standfirst|summary)(?:$|[-_])/;
/** Class/id that name the article text itself: never dropped, strong container bonus. */
const STRONG_BODY =
  /(?:^|[-_ ])(?:article-?body|articlebody|article-?content|article-?text|story-?body|story-?content|story-?text|entry-?content|post-?content|post-?body|post-?text|blog-?post-?content|body-?text|main-?text|article__body|article__content|text-?content|rich-?text|articletext|storytext|td-post-content|field-body|c-article-body)(?:$|[-_ ])/i;
const PROMO_LINE =
  /^(?:read more|read also|also read|related|see also|more:|click here|sign up|subscribe|follow us|share this|advertisement|anzeige|werbung|publicité|lesen sie auch|mehr zum thema|auch interessant|weiterlesen|leer más|lire aussi|continue reading|recommended|watch:|listen:|photo:|image:|foto:|bild:|getty images|©|schon gelesen|meistgelesen|meistdiskutiert|kommentieren|sie müssen sich|you must be logged|log in to|crédits? photos?|photo credits?|bildquelle|quellenangaben|if you enjoyed|das könnte sie auch|weitere artikel|more stories|top stories|most read|trending|puede escribirnos|alle angaben ohne gewähr|keine kommentare|like this story|no comments|leave a (?:comment|reply)|kommentar schreiben|das könnte (?:dich|sie)|zum weiterlesen|pdf$|.{0,40}als pdf|.{0,40}pdf herunterladen)/i;

interface Stats {
  /** Visible characters (whitespace collapsed) below, boilerplate excluded. */
  text: number;
  /** Characters inside links. */
  link: number;
  /** Characters inside <p>-like paragraphs. */
  para: number;
  commas: number;
  score: number;
  initialised: boolean;
  /** Counts below, for readability-style conditional cleaning. */
  p: number;
  img: number;
  li: number;
  input: number;
  embed: number;
}

/** toLowerCase allocates even when nothing changes: most class names are lower-case ASCII already. */
function lower(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c > 127) return s.toLowerCase();
  }
  return s;
}

const HIDDEN = 1;
const NAV_ROLE = 2;
const ARTICLE_BODY = 4;
const STRONG_SELF = 8;

// readAttribs() results (fields, not an object: this runs on every element).
let attrCi = "";
let attrFlags = 0;

/**
 * One pass over an element's attributes (a for-in beats several lookups on the many attribute shapes):
 * lower-cased "class id" in attrCi, hidden state, navigation role and articleBody itemprop in attrFlags.
 */
function readAttribs(el: Element): void {
  const a = el.attribs;
  let c: string | undefined;
  let i: string | undefined;
  let flags = 0;
  for (const k in a) {
    switch (k) {
      case "class":
        c = a[k];
        break;
      case "id":
        i = a[k];
        break;
      case "hidden":
        flags |= HIDDEN;
        break;
      case "aria-hidden":
        if (a[k] === "true") flags |= HIDDEN;
        break;
      case "style": {
        const style = a[k];
        if (style && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style)) flags |= HIDDEN;
        break;
      }
      case "role": {
        const role = a[k];
        if (role === "navigation" || role === "complementary") flags |= NAV_ROLE;
        break;
      }
      case "itemprop":
        if (a[k] === "articleBody") flags |= ARTICLE_BODY;
        break;
    }
  }
  if (i) {
    attrCi = c ? lower(`${c} ${i}`) : lower(i);
    if (isStrongBody(attrCi)) flags |= STRONG_SELF;
  } else if (c) {
    const known = classCache.get(c);
    if (known !== undefined) {
      attrCi = known.ci;
      if (known.strong) flags |= STRONG_SELF;
    } else {
      const ci = lower(c);
      const strong = ci !== "" && isStrongBody(ci);
      if (classCache.size > 20_000) classCache.clear();
      classCache.set(c, { ci, strong });
      attrCi = ci;
      if (strong) flags |= STRONG_SELF;
    }
  } else {
    attrCi = "";
  }
  attrFlags = flags;
}

/**
 * Class attributes repeat across elements and pages: their lower-cased form and body marker, once each (the
 * shared ci string also keeps its hash for the verdict caches).
 */
const classCache = new Map<string, { ci: string; strong: boolean }>();

function tokens(ci: string): string[] {
  return ci.split(/\s+/).filter(Boolean);
}

// Class strings repeat across elements and pages: remember each verdict (bounded).
const negativeCache = new Map<string, boolean>();
const positiveCache = new Map<string, boolean>();

function cached(cache: Map<string, boolean>, ci: string, re: RegExp): boolean {
  const hit = cache.get(ci);
  if (hit !== undefined) return hit;
  let v = false;
  for (const t of tokens(ci)) {
    if (re.test(t)) {
      v = true;
      break;
    }
  }
  if (cache.size > 20_000) cache.clear();
  cache.set(ci, v);
  return v;
}

const strongCache = new Map<string, boolean>();

const STRONG_STEM = /body|content|text/;

function isStrongBody(ci: string): boolean {
  // Every marker names body, content or text: skip the regex for the many class strings without them.
  if (ci === "" || !STRONG_STEM.test(ci)) return false;
  const hit = strongCache.get(ci);
  if (hit !== undefined) return hit;
  const v = STRONG_BODY.test(ci);
  if (strongCache.size > 20_000) strongCache.clear();
  strongCache.set(ci, v);
  return v;
}

function isNegative(ci: string): boolean {
  return ci !== "" && cached(negativeCache, ci, NEGATIVE);
}

function isPositive(ci: string): boolean {
  return ci !== "" && cached(positiveCache, ci, POSITIVE);
}

/** Text length (whitespace runs count as one character) and commas of a text node, in one pass. */
let scannedCommas = 0;
function scanText(data: string): number {
  let n = 0;
  let commas = 0;
  let space = true;
  const len = data.length;
  for (let i = 0; i < len; i++) {
    const c = data.charCodeAt(i);
    // Most characters are letters: one comparison tells them from the whitespace set.
    if (c > 32 ? c === 160 : c === 32 || c === 10 || c === 9 || c === 13 || c === 12) {
      if (!space) n++;
      space = true;
    } else {
      n++;
      space = false;
      if (c === 44 || (c >= 0x060c && (c === 0x060c || c === 0xff0c || c === 0x3001))) commas++;
    }
  }
  scannedCommas = commas;
  return n;
}

/** Own text length of an element (commas left in scannedCommas): for elements the survey did not record. */
function ownTextOf(el: Element): number {
  let n = 0;
  let commas = 0;
  for (const child of el.children) {
    if (child.type !== "text") continue;
    n += scanText((child as unknown as { data: string }).data);
    commas += scannedCommas;
  }
  scannedCommas = commas;
  return n;
}

export interface BodyOptions {
  /** Headline text: an element whose text equals it is not part of the body. */
  headline: string | null;
  /** Other forms of the headline the page states (og:title, JSON-LD): a heading equal to one is left out too. */
  headlineVariants?: string[];
}

export interface BodyResult {
  text: string;
  /** The chosen container (for date and byline lookups near the article). */
  container: Element | null;
}

/**
 * One record per element: what the survey learns once (so later passes read no attribute or text twice),
 * then the stats measure() fills in for the elements that survive. One object and one Map for both.
 */
class Surveyed implements Stats {
  text = 0;
  link = 0;
  para = 0;
  commas = 0;
  score = 0;
  initialised = false;
  p = 0;
  img = 0;
  li = 0;
  input = 0;
  embed = 0;
  /** The pass whose measure() filled the stats (the survey is shared by both passes). */
  pass = 0;
  /** NEGATIVE / POSITIVE verdicts on ci, once known (-1: not yet). */
  neg = -1;
  pos = -1;

  constructor(
    /** Lower-cased "class id". */
    readonly ci: string,
    /** Paragraph text below, before any removal. */
    readonly rawPara: number,
    /** A strong body marker on it or below. */
    readonly strong: boolean,
    /** Text length and commas of its own text children. */
    readonly ownText: number,
    readonly ownCommas: number,
    /** HIDDEN | NAV_ROLE | ARTICLE_BODY | STRONG_SELF. */
    readonly flags: number,
  ) {}
}

function isNegativeRec(r: Surveyed): boolean {
  if (r.neg < 0) r.neg = isNegative(r.ci) ? 1 : 0;
  return r.neg === 1;
}

function isPositiveRec(r: Surveyed): boolean {
  if (r.pos < 0) r.pos = isPositive(r.ci) ? 1 : 0;
  return r.pos === 1;
}

/** Record for an element the survey did not reach (its attributes only). */
function unsurveyed(el: Element, own: number, commas: number): Surveyed {
  readAttribs(el);
  return new Surveyed(attrCi, 0, false, own, commas, attrFlags);
}

/** The page survey, shared by both passes: one record per element, and the page's paragraph text. */
export interface Survey {
  records: Map<Element, Surveyed>;
  totalPara: number;
}

let passCounter = 0;

/** One element of the survey's walk (the root has none): what it gathers from its children so far. */
class SurveyFrame {
  i = 0;
  para = 0;
  strong = false;
  own = 0;
  commas = 0;
  text = 0;

  constructor(
    readonly el: Element | null,
    readonly children: AnyNode[],
    readonly isBlockWithProse: boolean,
    /** Collects the page signals below; null below elements that hold none. */
    readonly signals: SignalCollector | null,
    readonly inSvg: boolean,
    /**
     * False inside an element that is always dropped, whose records nobody reads (measure() never enters
     * it, findLead() needs only attributes and makes those on demand).
     */
    readonly keep: boolean,
  ) {}
}

/**
 * The body survey of a page: paragraph text per element before any removal, and which elements hold a
 * strong body marker, with each element's attributes read once. Independent of the pass, so both passes
 * share it. With a collector, the page signals are gathered in the same walk (parents before children).
 * Iterative (an explicit stack of frames): a page's depth costs heap, never call stack.
 */
export function surveyPage(root: AnyNode, signals: SignalCollector | null = null): Survey {
  const records = new Map<Element, Surveyed>();
  if (!("children" in root)) return { records, totalPara: 0 };
  const stack = [
    new SurveyFrame(
      null,
      root.children,
      isElement(root) && root.name !== "a" && root.name !== "p",
      signals,
      false,
      true,
    ),
  ];
  for (;;) {
    const f = stack[stack.length - 1]!;
    if (f.i < f.children.length) {
      const child = f.children[f.i++]!;
      const type = child.type;
      if (type === "text") {
        f.own += scanText((child as unknown as { data: string }).data);
        f.commas += scannedCommas;
      } else if (type !== "tag") {
        if (f.signals !== null && (type === "script" || type === "style"))
          f.signals.element(child as Element, f.inSvg);
      } else {
        const el = child as Element;
        const name = el.name;
        const below = f.signals?.element(el, f.inSvg) ? f.signals : null;
        const kept = f.keep && !(DROP_TAGS.has(name) && name !== "figure" && name !== "aside");
        stack.push(
          new SurveyFrame(
            el,
            el.children,
            name !== "a" && name !== "p",
            below,
            f.inSvg || name === "svg",
            kept,
          ),
        );
      }
      continue;
    }
    // The element's children are done: its totals, then its record and its share of its parent's.
    f.text += f.own;
    // Text written straight into a block (no <p>) counts as paragraph text when it is prose-sized.
    if (f.own >= 80 && f.isBlockWithProse) f.para += f.own;
    stack.pop();
    const el = f.el;
    const parent = stack[stack.length - 1];
    if (el === null || parent === undefined) return { records, totalPara: f.para };
    parent.text += f.text;
    const p = el.name === "p" ? Math.max(f.para, f.text) : f.para;
    readAttribs(el);
    const flags = attrFlags;
    const strong = f.strong || (flags & (ARTICLE_BODY | STRONG_SELF)) !== 0;
    if (f.keep) records.set(el, new Surveyed(attrCi, p, strong, f.own, f.commas, flags));
    parent.para += p;
    parent.strong ||= strong;
  }
}

class BodyExtractor {
  /** Elements measure() visited, in visiting order. */
  private readonly measuredOrder: Element[] = [];
  private readonly dropped = new Set<Element>();
  private readonly surveyed: Map<Element, Surveyed>;
  private readonly totalPara: number;
  private readonly pass = ++passCounter;

  constructor(
    private readonly root: AnyNode,
    private readonly opts: BodyOptions,
    survey: Survey,
    /** Second pass for pages the class signals emptied: tags and hidden state only. */
    private readonly lenient = false,
  ) {
    this.surveyed = survey.records;
    this.totalPara = survey.totalPara;
  }

  /** The measured stats of an element, undefined when measure() did not reach it (dropped or outside). */
  private stats(el: Element): Surveyed | undefined {
    const s = this.surveyed.get(el);
    return s !== undefined && s.pass === this.pass ? s : undefined;
  }

  private info(el: Element): Surveyed {
    let r = this.surveyed.get(el);
    if (r === undefined) {
      r = unsurveyed(el, 0, 0);
      this.surveyed.set(el, r);
    }
    return r;
  }

  /** Lower-cased "class id" of an element, computed once per page. */
  private ci(el: Element): string {
    return this.info(el).ci;
  }

  private shouldDrop(el: Element): boolean {
    const name = el.name;
    if (el.type !== "tag") return true;
    if (DROP_TAGS.has(name)) {
      // <figure> occasionally wraps the whole story; keep it when it carries most paragraphs.
      if (name === "figure" || name === "aside") return !this.holdsMostText(el);
      return true;
    }
    const info = this.info(el);
    const flags = info.flags;
    if (flags & HIDDEN) return !info.strong;
    if (name === "html" || name === "body" || name === "main" || name === "article") return false;
    if (GUARDED_DROP_TAGS.has(name)) return !this.holdsMostText(el) && !info.strong;
    if (flags & NAV_ROLE) return !this.holdsMostText(el);
    if (flags & ARTICLE_BODY) return false;
    const ci = info.ci;
    if (ci && !this.lenient && isNegativeRec(info)) {
      if (info.strong) return false;
      if (isPositiveRec(info) && this.holdsMostText(el)) return false;
      if (this.holdsMostText(el) && info.rawPara > 0.8 * this.totalPara) return false;
      return true;
    }
    return false;
  }

  private holdsMostText(el: Element): boolean {
    return this.totalPara > 200 && this.info(el).rawPara > 0.5 * this.totalPara;
  }

  /** The element's record, its stats reset for this pass. */
  private enter(el: Element): Surveyed {
    let st = this.surveyed.get(el);
    if (!st) {
      const own = ownTextOf(el);
      st = unsurveyed(el, own, scannedCommas);
      this.surveyed.set(el, st);
    }
    if (st.pass !== this.pass) {
      st.pass = this.pass;
      st.text = 0;
      st.link = 0;
      st.para = 0;
      st.commas = 0;
      st.score = 0;
      st.initialised = false;
      st.p = 0;
      st.img = 0;
      st.li = 0;
      st.input = 0;
      st.embed = 0;
    }
    this.measuredOrder.push(el);
    return st;
  }

  /**
   * Bottom-up stats over what survives, and readability-style paragraph scores pushed to ancestors.
   * Iterative: `path` holds the elements from `top` down to the one being measured, `next` the index of
   * the child each will look at next.
   */
  private measure(top: Element): void {
    const path: Element[] = [top];
    const stats: Surveyed[] = [this.enter(top)];
    const next: number[] = [0];
    while (path.length > 0) {
      const d = path.length - 1;
      const el = path[d]!;
      const st = stats[d]!;
      const children = el.children;
      let child: Element | null = null;
      while (next[d]! < children.length) {
        const c = children[next[d]!++]!;
        if (!isElement(c)) continue;
        const cn = c.name;
        if (cn === "img" || cn === "picture") st.img++;
        else if (cn === "input" || cn === "select" || cn === "textarea" || cn === "button") st.input++;
        else if (cn === "iframe" || cn === "embed" || cn === "object" || cn === "video") st.embed++;
        if (this.dropped.has(c) || this.shouldDrop(c)) {
          this.dropped.add(c);
          continue;
        }
        child = c;
        break;
      }
      if (child !== null) {
        path.push(child);
        stats.push(this.enter(child));
        next.push(0);
        continue;
      }
      this.finish(el, st, path);
      path.pop();
      stats.pop();
      next.pop();
      const parent = stats[d - 1];
      if (parent === undefined) continue;
      parent.text += st.text;
      parent.link += st.link;
      parent.para += st.para;
      parent.commas += st.commas;
      parent.p += st.p;
      parent.img += st.img;
      parent.li += st.li;
      parent.input += st.input;
      parent.embed += st.embed;
    }
  }

  /** An element whose children are measured: its own text, paragraph stats and score to its ancestors. */
  private finish(el: Element, st: Surveyed, path: Element[]): void {
    const isLink = el.name === "a";
    const ownText = st.ownText;
    st.text += ownText;
    st.commas += st.ownCommas;
    if (isLink) st.link = st.text;
    const name = el.name;
    if (name === "p") st.p++;
    else if (name === "li") st.li++;
    const paragraphLike =
      name === "p" ||
      name === "pre" ||
      name === "td" ||
      name === "blockquote" ||
      (ownText > 60 &&
        !isLink &&
        !HEADINGS.has(name) &&
        name !== "li" &&
        name !== "span" &&
        name !== "b" &&
        name !== "strong" &&
        name !== "em" &&
        name !== "i" &&
        name !== "font");
    if (name === "p" || (paragraphLike && name !== "td")) st.para = Math.max(st.para, st.text - st.link);
    if (paragraphLike && st.text >= 25) {
      const linkFree = st.text - st.link;
      if (linkFree >= 20) {
        const s = 1 + st.commas + Math.min(Math.floor(st.text / 100), 3);
        // path ends with el itself: its ancestors (within the measured subtree) come before it.
        const n = path.length - 1;
        for (let level = 0; level < 5 && n - 1 - level >= 0; level++) {
          const anc = path[n - 1 - level]!;
          const as = this.surveyed.get(anc)!;
          if (!as.initialised) this.initialise(anc, as);
          as.score += s / (level === 0 ? 1 : level === 1 ? 2 : level * 3);
        }
      }
    }
  }

  private initialise(el: Element, st: Surveyed): void {
    st.initialised = true;
    let s = 0;
    switch (el.name) {
      case "div":
      case "section":
        s += 5;
        break;
      case "article":
        s += 10;
        break;
      case "pre":
      case "td":
      case "blockquote":
        s += 3;
        break;
      case "address":
      case "ol":
      case "ul":
      case "dl":
      case "dd":
      case "dt":
      case "li":
      case "form":
        s -= 3;
        break;
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6":
      case "th":
        s -= 5;
        break;
    }
    if (st.ci) {
      if (isNegativeRec(st)) s -= 25;
      if (isPositiveRec(st)) s += 25;
      if (st.flags & STRONG_SELF) s += 25;
    }
    if (st.flags & ARTICLE_BODY) s += 50;
    st.score += s;
  }

  private linkDensity(st: Stats): number {
    return st.text > 0 ? st.link / st.text : 0;
  }

  private finalScore(el: Element): number {
    const st = this.stats(el);
    if (!st?.initialised) return 0;
    return st.score * (1 - this.linkDensity(st));
  }

  run(): BodyResult {
    const top = firstElementNamed(this.root, "body") ?? firstElementNamed(this.root, "html");
    if (!top) return { text: "", container: null };
    this.measure(top);
    let best: Element | null = null;
    let bestScore = 0;
    const candidates: [Element, number][] = [];
    for (const el of this.measuredOrder) {
      if (!this.stats(el)?.initialised) continue;
      const f = this.finalScore(el);
      candidates.push([el, f]);
      if (f > bestScore) {
        bestScore = f;
        best = el;
      }
    }
    if (!best) return { text: this.render([top]), container: top };
    best = this.refine(best, bestScore, candidates);
    best = this.widen(best);
    const chunks = this.sameClassChunks(best);
    const parts = chunks.length > 1 ? chunks : this.withSiblings(best);
    const text = this.render(parts);
    const lead = this.findLead(parts[0] ?? best, text);
    return { text: lead ? `${lead}\n\n${text}` : text, container: best };
  }

  /**
   * The standfirst/lead paragraph often sits in the article header, outside the chosen container (and
   * headers are dropped). It is part of the article: take the first lead-marked block before the container
   * within the same article region.
   */
  private findLead(first: Element, text: string): string | null {
    let scope: Element = first;
    for (let level = 0; level < 5; level++) {
      const p = scope.parent as Element | null;
      if (p?.type !== "tag" || p.name === "body" || p.name === "html") break;
      scope = p;
    }
    if (scope === first) return null;
    // Pre-order over the scope, children pushed in reverse (document order), until the container.
    const stack: AnyNode[] = [];
    const pushChildren = (node: Element): void => {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    };
    pushChildren(scope);
    while (stack.length > 0) {
      const c = stack.pop()!;
      if (c.type !== "tag") continue;
      const el = c as Element;
      if (el === first) return null;
      if (LEAD_SKIP.has(el.name)) continue;
      const info = this.info(el);
      if (info.flags & HIDDEN) continue;
      const ci = info.ci;
      if (ci && LEAD.test(ci) && !isNegativeLead(ci) && isLeafBlock(el)) {
        const t = cleanInline(rawText(el));
        if (t.length >= 80 && t.length <= 1500 && /[.!?…:"“”»«]/.test(t) && !text.includes(t.slice(0, 60)))
          return t;
      }
      pushChildren(el);
    }
    return null;
  }

  /** Readability's moves: a shared ancestor of several top candidates, then parents that score higher. */
  private refine(best: Element, bestScore: number, candidates: [Element, number][]): Element {
    candidates.sort((a, b) => b[1] - a[1]);
    const top = candidates.slice(1, 5).filter(([, s]) => s >= bestScore * 0.75);
    if (top.length >= 2) {
      let parent = best.parent as Element | null;
      while (parent && parent.type === "tag" && parent.name !== "body") {
        let shared = 0;
        for (const [el] of top) if (isAncestor(parent, el)) shared++;
        if (shared >= 2) {
          best = parent;
          break;
        }
        parent = parent.parent as Element | null;
      }
    }
    // Walk up while the parent adds no text of its own (a wrapper) or scores higher.
    let last = this.finalScore(best);
    const threshold = last / 3;
    let parent = best.parent as Element | null;
    while (parent && parent.type === "tag" && parent.name !== "body") {
      const ps = this.finalScore(parent);
      if (ps < threshold) break;
      if (ps > last) {
        best = parent;
        last = ps;
      }
      parent = parent.parent as Element | null;
    }
    while (
      best.parent &&
      (best.parent as Element).type === "tag" &&
      (best.parent as Element).name !== "body"
    ) {
      const p = best.parent as Element;
      const elementChildren = p.children.filter((c) => isElement(c) && !this.dropped.has(c));
      if (elementChildren.length !== 1) break;
      best = p;
    }
    return best;
  }

  /**
   * Pages whose main text sits in several sibling blocks (recipes, FAQs, product pages, split bodies): move
   * up while an ancestor holds much more paragraph text at a low link density.
   */
  private widen(best: Element): Element {
    const base = this.stats(best);
    if (!base) return best;
    let cur = best;
    for (let level = 0; level < 3; level++) {
      const p = cur.parent as Element | null;
      if (p?.type !== "tag" || p.name === "body" || p.name === "html") break;
      const ps = this.stats(p);
      if (!ps) break;
      if (ps.para >= WIDEN_GAIN * Math.max(base.para, 1) && this.linkDensity(ps) < WIDEN_MAX_LINK_DENSITY) {
        return p;
      }
      cur = p;
    }
    return best;
  }

  /**
   * Bodies split into several same-class blocks around ads and embeds (one wrapper each): every block with
   * the container's tag and class under a near ancestor, in page order.
   */
  private sameClassChunks(best: Element): Element[] {
    const cls = best.attribs.class;
    if (!cls) return [];
    let scope: Element = best;
    for (let level = 0; level < 4; level++) {
      const p = scope.parent as Element | null;
      if (p?.type !== "tag" || p.name === "body" || p.name === "html") break;
      scope = p;
      if (p.name === "article" || p.name === "main") break;
    }
    if (scope === best) return [];
    const out: Element[] = [];
    // Pre-order (children pushed in reverse), not descending into a match.
    const stack: AnyNode[] = [];
    const pushChildren = (node: Element): void => {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    };
    pushChildren(scope);
    while (stack.length > 0) {
      const c = stack.pop()!;
      if (!isElement(c) || this.dropped.has(c) || c.type !== "tag") continue;
      if (c.name === best.name && c.attribs.class === cls) {
        const st = this.stats(c);
        if (st && st.text > 0) out.push(c);
        continue;
      }
      pushChildren(c);
    }
    return out;
  }

  private withSiblings(best: Element): Element[] {
    const parent = best.parent;
    if (!parent || !("children" in parent)) return [best];
    const bestScore = this.finalScore(best);
    const threshold = Math.max(10, bestScore * 0.2);
    const bestClass = best.attribs.class ?? "";
    const out: Element[] = [];
    for (const sib of parent.children) {
      if (!isElement(sib) || this.dropped.has(sib)) continue;
      if (sib === best) {
        out.push(sib);
        continue;
      }
      const st = this.stats(sib);
      if (!st) continue;
      let bonus = 0;
      if (bestClass && sib.attribs.class === bestClass) bonus += bestScore * 0.2;
      if (st.initialised && this.finalScore(sib) + bonus >= threshold) {
        out.push(sib);
        continue;
      }
      if (sib.name === "p") {
        const ld = this.linkDensity(st);
        if (
          (st.text > 80 && ld < 0.25) ||
          (st.text > 0 && st.text <= 80 && ld === 0 && /[.!?…]\s*$/.test(rawText(sib)))
        ) {
          out.push(sib);
        }
      }
    }
    return out;
  }

  /** Serialises the chosen elements to paragraphs, leaving out link lists, promos and the headline. */
  private parts = new Set<Element>();
  private partsPara = 0;

  private render(parts: Element[]): string {
    this.parts = new Set(parts);
    this.partsPara = parts.reduce((n, p) => n + (this.stats(p)?.para ?? 0), 0);
    const paras: string[] = [];
    let buf = "";
    const flush = (): void => {
      if (buf === "") return;
      const t = cleanInline(buf);
      buf = "";
      if (!t) return;
      paras.push(t);
    };
    const headline = this.opts.headline ? normaliseForCompare(this.opts.headline) : null;
    this.variants = (this.opts.headlineVariants ?? []).map(normaliseForCompare).filter((v) => v.length >= 10);
    // Iterative: children pushed in reverse (document order); a block pushes END_BLOCK before its
    // children, so its text is flushed as one paragraph after them.
    const stack: (AnyNode | typeof END_BLOCK)[] = [];
    const pushChildren = (node: AnyNode): void => {
      if (!("children" in node)) return;
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    };
    const visit = (root: AnyNode): void => {
      pushChildren(root);
      while (stack.length > 0) {
        const child = stack.pop()!;
        if (child === END_BLOCK) {
          flush();
          continue;
        }
        if (child.type === "text") {
          buf += (child as unknown as { data: string }).data;
          continue;
        }
        if (!isElement(child) || this.dropped.has(child)) continue;
        const name = child.name;
        if (name === "br") {
          flush();
          continue;
        }
        if (BLOCK_TAGS.has(name)) {
          if (this.skipBlock(child, headline)) continue;
          flush();
          stack.push(END_BLOCK);
        }
        pushChildren(child);
      }
    };
    for (const p of parts) {
      if (this.skipBlock(p, headline) && parts.length > 1) continue;
      flush();
      visit(p);
      flush();
    }
    return paras.filter((p) => !isPromoLine(p)).join("\n\n");
  }

  /** Readability's conditional cleaning of blocks inside the chosen container. */
  private cleanConditionally(el: Element, st: Surveyed): boolean {
    const ci = st.ci;
    if (st.flags & (STRONG_SELF | ARTICLE_BODY)) return false;
    // A wrapper holding most of the chosen text is the text.
    if (st.para >= 0.5 * this.partsPara) return false;
    let weight = 0;
    if (ci) {
      if (isNegativeRec(st)) weight -= 25;
      if (isPositiveRec(st)) weight += 25;
    }
    const score = st.initialised ? st.score : 0;
    if (weight + score < 0) return true;
    if (st.commas >= 10) return false;
    const isList = el.name === "ul" || el.name === "ol";
    const ld = this.linkDensity(st);
    const p = st.p;
    const li = st.li - 100;
    const len = st.text;
    if (st.img > 1 && p / st.img < 0.5) return true;
    if (!isList && li > p) return true;
    if (st.input > Math.floor(p / 3)) return true;
    // Short blocks go, unless they are sub-headings written as styled divs.
    if (!isList && len < 25 && (st.img === 0 || st.img > 2) && !/head|title/.test(ci)) return true;
    if (!isList && weight < 25 && ld > 0.2) return true;
    if (weight >= 25 && ld > 0.5) return true;
    if ((st.embed === 1 && len < 75) || st.embed > 1) return true;
    return false;
  }

  private variants: string[] = [];

  private isAnyHeadline(heading: string, headline: string): boolean {
    return isHeadlineText(heading, headline) || this.variants.includes(heading);
  }

  private skipBlock(el: Element, headline: string | null): boolean {
    const st = this.stats(el);
    if (!st) return false;
    const name = el.name;
    if (HEADINGS.has(name) && headline && this.isAnyHeadline(normaliseForCompare(rawText(el)), headline))
      return true;
    if (st.text === 0) return true;
    const ld = this.linkDensity(st);
    if (name === "p" || HEADINGS.has(name)) return ld > 0.8 && st.text < 200;
    if (name === "ul" || name === "ol" || name === "dl") return ld > 0.5;
    if (name === "li") return false;
    if (CONDITIONAL.has(name) && !this.parts.has(el) && this.cleanConditionally(el, st)) return true;
    // Containers: link-heavy blocks with little prose are navigation or related links.
    if (ld > 0.5 && st.para < 200) return true;
    if (ld > 0.33 && st.para < 0.3 * st.text && st.text < 1000 && st.commas < 5) return true;
    return false;
  }
}

/** "Follow us on Instagram, Facebook and Twitter": a line naming two or more social networks. */
const SOCIAL =
  /\b(?:instagram|facebook|twitter|youtube|tiktok|linkedin|snapchat|whatsapp|telegram|pinterest)\b/gi;

function isSocialPromo(p: string): boolean {
  return p.length < 250 && (p.match(SOCIAL)?.length ?? 0) >= 2;
}

const COMMENTS_LINE =
  /^(?:\d+\s+)?(?:comments?|kommentare?|commentaires?|comentarios?|commenti)(?:\s*\(\d+\))?:?$/i;

/** Wire-style credit lines at the end of a story: "(Reporting by …; Editing by …)", "… contributed to this report." */
const CREDIT_LINE =
  /^\(?\s*(?:(?:additional )?reporting by|writing by|editing by|compiled by|with reporting by)\b|contributed (?:to )?this report\.?\)?$/i;

function isPromoLine(p: string): boolean {
  if (p.length <= 300 && (CREDIT_LINE.test(p) || isSocialPromo(p))) return true;
  if (p.length > 140) return false;
  return PROMO_LINE.test(p) || COMMENTS_LINE.test(p) || isDateline(p) || isSocialPromo(p);
}

/** "Published 12 March 2026", "Von X · 3. Februar 2026": a date with a few words around it. */
function isDateline(p: string): boolean {
  if (p.length > 80 || !/\d/.test(p)) return false;
  const m = scanDates(p)[0];
  if (!m) return false;
  const rest = (p.slice(0, m.index) + p.slice(m.end)).replace(/[^\p{L}]+/gu, "");
  return rest.length <= 25;
}

/** The headline itself, or the headline with a kicker or label around it. */
function isHeadlineText(heading: string, headline: string): boolean {
  if (heading === headline) return true;
  return headline.length >= 10 && heading.includes(headline) && heading.length <= headline.length + 40;
}

function normaliseForCompare(s: string): string {
  return cleanInline(s)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The first element of that name in document order (pre-order, iterative). */
function firstElementNamed(node: AnyNode, name: string): Element | null {
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n !== node) {
      if (!isElement(n)) continue;
      if (n.name === name) return n;
    }
    if ("children" in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return null;
}

function isAncestor(anc: Element, el: Element): boolean {
  let p = el.parent;
  while (p) {
    if (p === anc) return true;
    p = p.parent;
  }
  return false;
}

/** Marks the end of a block on render()'s stack. */
const END_BLOCK = Symbol("end of block");

/** Below this many characters the class-based pass probably removed the article with its wrapper. */
const RETRY_CHARS = 250;

/** `survey`: surveyPage(root), when the caller already made it. */
export function extractBody(root: AnyNode, opts: BodyOptions, survey = surveyPage(root)): BodyResult {
  const first = new BodyExtractor(root, opts, survey).run();
  if (first.text.length >= RETRY_CHARS) return first;
  const second = new BodyExtractor(root, opts, survey, true).run();
  return second.text.length > first.text.length ? second : first;
}
