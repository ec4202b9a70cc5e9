/**
 * One pass of the body extractor over a surveyed page: which elements are dropped (tags, hidden state,
 * class/id signals unless the element holds most of the prose), then bottom-up stats over what survives and
 * readability-style paragraph scores (length, commas) pushed to ancestors, discounted by link density, with
 * <article>, itemprop=articleBody and body-like class names as bonuses.
 */

import {
  ARTICLE_BODY,
  BLOCK_TAGS,
  DROP_TAGS,
  GUARDED_DROP_TAGS,
  HEADINGS,
  HIDDEN,
  NAV_ROLE,
  STRONG_SELF,
} from "./body-vocabulary";
import { type Element, elementsInOrder, isElement } from "./dom";
import type { PageScanner, Stats, Surveyed } from "./page-survey";

/** A hover card holds a name, a line of bio and a few links: more text than this is not one. */
const HOVER_CARD_CHARS = 400;

/** Share of the page's prose a hidden body must hold to be the text rather than a copy of it. */
const HIDDEN_BODY_SHARE = 0.6;

/** Input types that take an address or a password: sign-up, log-in and comment forms. */
const TEXT_ASKING_TYPES = new Set(["email", "password"]);

/** A <textarea>, or an e-mail or password field, below the form. */
function asksForText(form: Element): boolean {
  for (const el of elementsInOrder(form)) {
    if (el.name === "textarea") return true;
    if (el.name === "input" && TEXT_ASKING_TYPES.has(el.attribs.type?.toLowerCase() ?? "")) return true;
  }
  return false;
}

export class BodyPass {
  /** Elements measure() visited, in visiting order. */
  readonly measuredOrder: Element[] = [];
  readonly dropped = new Set<Element>();
  private readonly surveyed: Map<Element, Surveyed>;
  private readonly totalPara: number;
  private readonly pass: number;
  /** <blockquote>s on measure()'s path. */
  private quotes = 0;

  constructor(
    readonly scanner: PageScanner,
    /** Second pass for pages the class signals emptied: tags and hidden state only. */
    private readonly lenient = false,
  ) {
    this.surveyed = scanner.records;
    this.totalPara = scanner.totalPara;
    this.pass = scanner.nextPass();
  }

  /** The measured stats of an element, undefined when measure() did not reach it (dropped or outside). */
  stats(el: Element): Surveyed | undefined {
    const s = this.surveyed.get(el);
    return s !== undefined && s.pass === this.pass ? s : undefined;
  }

  /** The element's survey record (made on demand for elements the survey left out). */
  info(el: Element): Surveyed {
    let r = this.surveyed.get(el);
    if (r === undefined) {
      r = this.scanner.unsurveyed(el, 0, 0);
      this.surveyed.set(el, r);
    }
    return r;
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
    // A hidden element is dropped unless it is the text itself: a marked body holding clearly more than half
    // the page's prose. A hidden copy of a visible body holds half, marked articleBody or not, and goes.
    if (flags & HIDDEN) return !(info.strong && this.holdsMostText(el, HIDDEN_BODY_SHARE));
    if (name === "html" || name === "body" || name === "main" || name === "article") return false;
    if (GUARDED_DROP_TAGS.has(name)) return !this.holdsMostText(el) && !info.strong;
    if (flags & NAV_ROLE) return !this.holdsMostText(el);
    if (flags & ARTICLE_BODY) return false;
    const ci = info.ci;
    if (ci && !this.lenient && this.scanner.isNegative(info)) {
      if (info.strong) return false;
      // A link inside a sentence is part of it whatever its class says (icon, tooltip, more, …): cutting it
      // would cut the sentence.
      if (name === "a" && this.inRunningText(el)) return false;
      // A quotation is quoted text (an embedded post, a letter, a statement), its blocks too; the class
      // names their styling or the embed they came from.
      if (name === "blockquote" || this.quotes > 0) return false;
      if (this.scanner.isPositive(info) && this.holdsMostText(el)) return false;
      if (this.holdsMostText(el) && info.rawPara > 0.8 * this.totalPara) return false;
      return true;
    }
    return false;
  }

  /**
   * Inline in a line of text: text of its own sits in an inline ancestor or in the block that holds it
   * (the survey's own-text lengths; whitespace counts nothing).
   */
  private inRunningText(el: Element): boolean {
    let p = el.parent;
    while (p !== null && p.type === "tag") {
      const anc = p as Element;
      if (this.info(anc).ownText > 0) return true;
      if (BLOCK_TAGS.has(anc.name)) return false;
      p = anc.parent;
    }
    return false;
  }

  /**
   * A hover card: an inline element in a line of text holding an image and several links but no paragraph
   * (a person's or a term's card, hidden until hovered). Rendered, it would cut the sentence it sits in.
   */
  private isHoverCard(el: Element, st: Surveyed): boolean {
    return (
      st.anchors >= 2 &&
      st.img + st.figure >= 1 &&
      st.para === 0 &&
      st.text < HOVER_CARD_CHARS &&
      !BLOCK_TAGS.has(el.name) &&
      this.inRunningText(el)
    );
  }

  private holdsMostText(el: Element, share = 0.5): boolean {
    return this.totalPara > 200 && this.info(el).rawPara > share * this.totalPara;
  }

  /** The element's record, its stats reset for this pass. */
  private enter(el: Element): Surveyed {
    let st = this.surveyed.get(el);
    if (!st) {
      const own = this.scanner.ownTextOf(el);
      st = this.scanner.unsurveyed(el, own, this.scanner.commas);
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
      st.figure = 0;
      st.anchors = 0;
    }
    this.measuredOrder.push(el);
    return st;
  }

  /**
   * Bottom-up stats over what survives, and readability-style paragraph scores pushed to ancestors.
   * Iterative: `path` holds the elements from `top` down to the one being measured, `next` the index of
   * the child each will look at next.
   */
  measure(top: Element): void {
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
        // A form that asks for text (a comment, an address, a password) is dropped unentered: it counts as
        // an input. A calculator's number field does not make its block an interactive one.
        else if (cn === "form" && asksForText(c)) st.input++;
        else if (cn === "iframe" || cn === "embed" || cn === "object" || cn === "video") st.embed++;
        else if (cn === "figure") st.figure++;
        if (this.dropped.has(c) || this.shouldDrop(c)) {
          this.dropped.add(c);
          continue;
        }
        child = c;
        break;
      }
      if (child !== null) {
        if (child.name === "blockquote") this.quotes++;
        path.push(child);
        stats.push(this.enter(child));
        next.push(0);
        continue;
      }
      this.finish(el, st, path);
      if (el.name === "blockquote" && d > 0) this.quotes--;
      path.pop();
      stats.pop();
      next.pop();
      const parent = stats[d - 1];
      if (parent === undefined) continue;
      if (this.isHoverCard(el, st)) {
        this.dropped.add(el);
        continue;
      }
      parent.text += st.text;
      parent.link += st.link;
      parent.para += st.para;
      parent.commas += st.commas;
      parent.p += st.p;
      parent.img += st.img;
      parent.li += st.li;
      parent.input += st.input;
      parent.embed += st.embed;
      parent.figure += st.figure;
      parent.anchors += st.anchors;
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
    else if (isLink) st.anchors++;
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
      if (this.scanner.isNegative(st)) s -= 25;
      if (this.scanner.isPositive(st)) s += 25;
      if (st.flags & STRONG_SELF) s += 25;
    }
    if (st.flags & ARTICLE_BODY) s += 50;
    st.score += s;
  }

  linkDensity(st: Stats): number {
    return st.text > 0 ? st.link / st.text : 0;
  }

  finalScore(el: Element): number {
    const st = this.stats(el);
    if (!st?.initialised) return 0;
    return st.score * (1 - this.linkDensity(st));
  }
}
