/**
 * The body survey of a page: one walk that records, per element, its class/id, hidden and role flags, its
 * paragraph text before any removal and whether a strong body marker sits on it or below. Both body passes
 * share it; the page signals (page-signals.ts) are gathered in the same walk.
 * All per-page state (the records, the verdict caches, the scan results) lives on one PageScanner.
 */

import {
  ARTICLE_BODY,
  DROP_TAGS,
  HIDDEN,
  lower,
  NAV_ROLE,
  NEGATIVE_TOKEN,
  POSITIVE,
  STRONG_BODY,
  STRONG_SELF,
  STRONG_STEM,
  tokens,
} from "./body-vocabulary";
import { type AnyNode, type Element, isElement } from "./dom";
import type { SignalCollector } from "./page-signals";

export interface Stats {
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
  /** <figure>s below (dropped unentered: their images are not in img). */
  figure: number;
  /** Links (<a>) below, the element itself included. */
  anchors: number;
}

/**
 * One record per element: what the survey learns once (so later passes read no attribute or text twice),
 * then the stats a pass's measure() fills in for the elements that survive. One object and one Map for both.
 */
export class Surveyed implements Stats {
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
  figure = 0;
  anchors = 0;
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

/** Verdict caches stop growing here (class strings repeat; a hostile page may not). */
const CACHE_LIMIT = 20_000;

/** A page's survey and the scanning state that goes with it. */
export class PageScanner {
  readonly records = new Map<Element, Surveyed>();
  /** Paragraph text of the whole page, before any removal. */
  totalPara = 0;
  private passes = 0;
  /** Commas of the last scanText()/ownTextOf(). */
  commas = 0;
  // readAttribs() results (fields, not an object: this runs on every element).
  private attrCi = "";
  private attrFlags = 0;
  /** Class attributes repeat across elements: their lower-cased form and body marker, once each. */
  private readonly classes = new Map<string, { ci: string; strong: boolean }>();
  private readonly negative = new Map<string, boolean>();
  private readonly positive = new Map<string, boolean>();
  private readonly strongBody = new Map<string, boolean>();

  /** A new pass over the survey: records measured by an earlier pass read as unmeasured. */
  nextPass(): number {
    return ++this.passes;
  }

  /** Text length (whitespace runs count as one character) of a text node, its commas in `commas`. */
  scanText(data: string): number {
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
    this.commas = commas;
    return n;
  }

  /** Own text length of an element (commas in `commas`): for elements the survey did not record. */
  ownTextOf(el: Element): number {
    let n = 0;
    let commas = 0;
    for (const child of el.children) {
      if (child.type !== "text") continue;
      n += this.scanText((child as unknown as { data: string }).data);
      commas += this.commas;
    }
    this.commas = commas;
    return n;
  }

  /**
   * One pass over an element's attributes (a for-in beats several lookups on the many attribute shapes):
   * lower-cased "class id" in attrCi, hidden state, navigation role and articleBody itemprop in attrFlags.
   */
  private readAttribs(el: Element): void {
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
      this.attrCi = c ? lower(`${c} ${i}`) : lower(i);
      if (this.isStrongBody(this.attrCi)) flags |= STRONG_SELF;
    } else if (c) {
      const known = this.classes.get(c);
      if (known !== undefined) {
        this.attrCi = known.ci;
        if (known.strong) flags |= STRONG_SELF;
      } else {
        const ci = lower(c);
        const strong = ci !== "" && this.isStrongBody(ci);
        if (this.classes.size > CACHE_LIMIT) this.classes.clear();
        this.classes.set(c, { ci, strong });
        this.attrCi = ci;
        if (strong) flags |= STRONG_SELF;
      }
    } else {
      this.attrCi = "";
    }
    this.attrFlags = flags;
  }

  private isStrongBody(ci: string): boolean {
    if (ci === "" || !STRONG_STEM.test(ci)) return false;
    const hit = this.strongBody.get(ci);
    if (hit !== undefined) return hit;
    const v = STRONG_BODY.test(ci);
    if (this.strongBody.size > CACHE_LIMIT) this.strongBody.clear();
    this.strongBody.set(ci, v);
    return v;
  }

  isNegative(r: Surveyed): boolean {
    if (r.neg < 0) r.neg = r.ci !== "" && cached(this.negative, r.ci, NEGATIVE_TOKEN) ? 1 : 0;
    return r.neg === 1;
  }

  isPositive(r: Surveyed): boolean {
    if (r.pos < 0) r.pos = r.ci !== "" && cached(this.positive, r.ci, POSITIVE) ? 1 : 0;
    return r.pos === 1;
  }

  /** Record for an element the survey did not reach (its attributes only). */
  unsurveyed(el: Element, own: number, commas: number): Surveyed {
    this.readAttribs(el);
    return new Surveyed(this.attrCi, 0, false, own, commas, this.attrFlags);
  }

  /**
   * An element the survey finished (its children's totals known): its record when `keep`, and whether a
   * strong body marker sits on it or below.
   */
  record(
    el: Element,
    para: number,
    strongBelow: boolean,
    own: number,
    commas: number,
    keep: boolean,
  ): boolean {
    this.readAttribs(el);
    const flags = this.attrFlags;
    const strong = strongBelow || (flags & (ARTICLE_BODY | STRONG_SELF)) !== 0;
    if (keep) this.records.set(el, new Surveyed(this.attrCi, para, strong, own, commas, flags));
    return strong;
  }
}

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
  if (cache.size > CACHE_LIMIT) cache.clear();
  cache.set(ci, v);
  return v;
}

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
export function surveyPage(root: AnyNode, signals: SignalCollector | null = null): PageScanner {
  const scanner = new PageScanner();
  if (!("children" in root)) return scanner;
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
        f.own += scanner.scanText((child as unknown as { data: string }).data);
        f.commas += scanner.commas;
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
    if (el === null || parent === undefined) {
      scanner.totalPara = f.para;
      return scanner;
    }
    parent.text += f.text;
    const p = el.name === "p" ? Math.max(f.para, f.text) : f.para;
    const strong = scanner.record(el, p, f.strong, f.own, f.commas, f.keep);
    parent.para += p;
    parent.strong ||= strong;
  }
}
