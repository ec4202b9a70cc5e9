/**
 * Rendering and cleaning: the chosen blocks serialised to paragraphs separated by blank lines, leaving out
 * link lists, widget blocks (readability's conditional cleaning), one-line promos, datelines and the
 * headline.
 */

import type { BodyOptions } from "./body";
import type { BodyPass } from "./body-pass";
import { ARTICLE_BODY, BLOCK_TAGS, CONDITIONAL, HEADINGS, isPromoLine, STRONG_SELF } from "./body-vocabulary";
import { type AnyNode, type Element, isElement, rawText } from "./dom";
import type { Surveyed } from "./page-survey";
import { cleanInline } from "./text";

/** Text beside an image, in a block without paragraphs, up to this long is its caption. */
const IMAGE_CAPTION_CHARS = 200;

/** Ends in a full stop (or …), closing quotes and brackets after it ("!" ends a call to action as often). */
const FULL_STOP = /[.…]["'“”»«)\]]*\s*$/;

/** Text after the last <hr> up to this long and this share of the text is a box set off from it. */
const RULED_TAIL_CHARS = 600;
const RULED_TAIL_SHARE = 0.2;

/** Marks the end of a block on render()'s stack. */
const END_BLOCK = Symbol("end of block");
/** Marks the end of a heading (h1–h6, or a paragraph written all in bold): its text is a heading's. */
const END_HEADING = Symbol("end of heading");
/** Marks the end of a paragraph in small type (<small>, a small font size): fine print. */
const END_FINE = Symbol("end of fine print");

/** Serialises the chosen elements of a pass to paragraphs. */
export class BodyRenderer {
  private readonly parts: Set<Element>;
  private readonly partsPara: number;
  private readonly headline: string | null;
  private readonly variants: string[];

  constructor(
    private readonly pass: BodyPass,
    private readonly list: Element[],
    opts: BodyOptions,
  ) {
    this.parts = new Set(list);
    this.partsPara = list.reduce((n, p) => n + (pass.stats(p)?.para ?? 0), 0);
    this.headline = opts.headline ? normaliseForCompare(opts.headline) : null;
    this.variants = (opts.headlineVariants ?? []).map(normaliseForCompare).filter((v) => v.length >= 10);
  }

  /** The paragraphs of the parts, separated by blank lines. */
  text(): string {
    const parts = this.list;
    const paras: string[] = [];
    /** Paragraphs that are headings, and paragraphs in small type. */
    const headings = new Set<string>();
    const fine = new Set<string>();
    let buf = "";
    /** Paragraphs before the last horizontal rule. */
    let lastRule = 0;
    const flush = (end: symbol = END_BLOCK): void => {
      if (buf === "") return;
      const t = cleanInline(buf);
      buf = "";
      if (!t) return;
      paras.push(t);
      if (end === END_HEADING) headings.add(t);
      else if (end === END_FINE) fine.add(t);
    };
    const headline = this.headline;
    // Iterative: children pushed in reverse (document order); a block pushes END_BLOCK before its
    // children, so its text is flushed as one paragraph after them.
    const stack: (AnyNode | typeof END_BLOCK | typeof END_HEADING | typeof END_FINE)[] = [];
    const pushChildren = (node: AnyNode): void => {
      if (!("children" in node)) return;
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    };
    const visit = (root: AnyNode): void => {
      pushChildren(root);
      while (stack.length > 0) {
        const child = stack.pop()!;
        if (child === END_BLOCK || child === END_HEADING || child === END_FINE) {
          flush(child);
          continue;
        }
        if (child.type === "text") {
          buf += (child as unknown as { data: string }).data;
          continue;
        }
        if (!isElement(child)) continue;
        if (this.pass.dropped.has(child)) {
          // A block left out still ends the line: the text on either side does not join.
          if (BLOCK_TAGS.has(child.name)) flush();
          continue;
        }
        const name = child.name;
        if (name === "br") {
          flush();
          continue;
        }
        if (name === "hr") {
          flush();
          lastRule = paras.length;
          continue;
        }
        if (BLOCK_TAGS.has(name)) {
          if (this.skipBlock(child, headline)) {
            flush();
            continue;
          }
          flush();
          stack.push(
            HEADINGS.has(name) || isBoldLine(child) ? END_HEADING : isFinePrint(child) ? END_FINE : END_BLOCK,
          );
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
    // A horizontal rule near the end sets off a box after the article (more stories, about us, a citation
    // and copyright note): two or more short paragraphs; a single line there is as often a credit.
    if (lastRule > 0 && lastRule < paras.length - 1) {
      let tail = 0;
      let all = 0;
      for (let i = 0; i < paras.length; i++) {
        all += paras[i]!.length;
        if (i >= lastRule) tail += paras[i]!.length;
      }
      if (tail <= RULED_TAIL_CHARS && tail < RULED_TAIL_SHARE * all) paras.length = lastRule;
    }
    const kept = paras.filter((p) => !isPromoLine(p));
    // Small type after the text is its fine print (sources, notes, legal lines), not the article.
    while (kept.length > 1 && fine.has(kept.at(-1)!)) kept.pop();
    // A heading introduces what follows it: headings that end the text introduced something left out
    // (related links, comments, a share or sign-up box). A lone one ending in a full stop is a sentence set
    // as a heading.
    let run = kept.length;
    while (run > 1 && headings.has(kept[run - 1]!)) run--;
    if (kept.slice(run).some((h) => !FULL_STOP.test(h))) kept.length = run;
    return kept.join("\n\n");
  }

  /** Readability's conditional cleaning of blocks inside the chosen container. */
  private cleanConditionally(el: Element, st: Surveyed): boolean {
    const ci = st.ci;
    if (st.flags & (STRONG_SELF | ARTICLE_BODY)) return false;
    // A wrapper holding most of the chosen text is the text.
    if (st.para >= 0.5 * this.partsPara) return false;
    let weight = 0;
    if (ci) {
      if (this.pass.scanner.isNegative(st)) weight -= 25;
      if (this.pass.scanner.isPositive(st)) weight += 25;
    }
    const score = st.initialised ? st.score : 0;
    if (weight + score < 0) return true;
    if (st.commas >= 10) return false;
    const isList = el.name === "ul" || el.name === "ol";
    const ld = this.pass.linkDensity(st);
    const p = st.p;
    const li = st.li - 100;
    const len = st.text;
    if (st.img > 1 && p / st.img < 0.5) return true;
    // An image with a line of text and no paragraph: the image's caption and credit.
    if (!isList && st.img + st.figure >= 1 && p === 0 && len < IMAGE_CAPTION_CHARS) return true;
    if (!isList && li > p) return true;
    if (st.input > Math.floor(p / 3)) return true;
    // Short blocks go, unless they are sub-headings written as styled divs.
    if (!isList && len < 25 && (st.img === 0 || st.img > 2) && !/head|title/.test(ci)) return true;
    if (!isList && weight < 25 && ld > 0.2) return true;
    if (weight >= 25 && ld > 0.5) return true;
    if ((st.embed === 1 && len < 75) || st.embed > 1) return true;
    return false;
  }

  private isAnyHeadline(heading: string, headline: string): boolean {
    return isHeadlineText(heading, headline) || this.variants.includes(heading);
  }

  private skipBlock(el: Element, headline: string | null): boolean {
    const st = this.pass.stats(el);
    if (!st) return false;
    const name = el.name;
    if (HEADINGS.has(name) && headline && this.isAnyHeadline(normaliseForCompare(rawText(el)), headline))
      return true;
    if (st.text === 0) return true;
    const ld = this.pass.linkDensity(st);
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

/**
 * A paragraph written all in bold (<p><strong>…</strong></p>) without a full stop: a heading in all but
 * name (a bold line ending in a full stop is a credit or a note: "The interview was conducted by …").
 */
function isBoldLine(el: Element): boolean {
  if (el.name !== "p") return false;
  if (FULL_STOP.test(rawText(el))) return false;
  let bold: Element | null = null;
  for (const c of el.children) {
    if (c.type === "text") {
      if ((c as unknown as { data: string }).data.trim() !== "") return false;
    } else if (isElement(c)) {
      if (bold !== null || (c.name !== "strong" && c.name !== "b")) return false;
      bold = c;
    }
  }
  return bold !== null;
}

/** Inline font sizes of small type: 13px, 10pt, 0.85em/rem, 85 % and below, or a small keyword. */
const SMALL_FONT =
  /font-size\s*:\s*(?:x{0,2}-small|smaller|(?:[0-9]|1[0-3])(?:\.\d+)?px|(?:[0-9]|10)(?:\.\d+)?pt|0?\.[0-8]\d*r?em|[1-8]?\d(?:\.\d+)?%)/i;

/** A paragraph in small type: all of it inside <small>, or a small font size set on it. */
function isFinePrint(el: Element): boolean {
  const style = el.attribs.style;
  if (style !== undefined && SMALL_FONT.test(style)) return true;
  let small: Element | null = null;
  for (const c of el.children) {
    if (c.type === "text") {
      if ((c as unknown as { data: string }).data.trim() !== "") return false;
    } else if (isElement(c)) {
      if (small !== null || c.name !== "small") return false;
      small = c;
    }
  }
  return small !== null;
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
