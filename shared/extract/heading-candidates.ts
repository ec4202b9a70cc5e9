/**
 * The page's <h1> elements read as headline candidates: the article's headings, breadcrumb entries and a logo
 * apart, each heading's text without its kicker markup and with the boundaries of its parts marked.
 */
import { endsLine } from "./body-vocabulary";
import { type AnyNode, type Element, elementsInOrder, textOf } from "./dom";
import { cleanInline } from "./text";

const KICKER =
  /(?:^|[-_ ])(?:kicker|overline|topline|dachzeile|eyebrow|roofline|supertitle|pretitle|spitzmarke|rubric)(?:$|[-_ ])/i;

/**
 * Marks where one part of a heading ends and the next begins (a kicker, the headline, a subtitle: the <h1>'s
 * child elements); zero-width, so the heading's text is unchanged once the marks are dropped.
 */
export const PART = "\u2063";

/**
 * Heading text without kicker/overline parts, screen-reader-only separators and ruby annotations (<rt>, <rp>:
 * the readings printed over Japanese and Chinese characters, which no other source of the headline carries),
 * with PART marks around each child element of the <h1> (or of the one element it wraps).
 */
function headingText(el: Element): string {
  let root = el;
  for (;;) {
    const kids = root.children.filter((c) => c.type === "tag" || (c.type === "text" && textOf(c).trim()));
    const only = kids.length === 1 && kids[0]!.type === "tag" ? (kids[0] as Element) : null;
    if (!only || isKickerOrHidden(only)) break;
    root = only;
  }
  let out = "";
  for (const c of root.children) {
    if (c.type === "text") out += textOf(c);
    else if (c.type === "tag") {
      const e = c as Element;
      const mark = endsLine(e) ? ` ${PART}` : PART;
      out += isKickerOrHidden(e) ? mark : `${mark}${textOf(e, { skip: isKickerOrHidden })}${mark}`;
    }
  }
  return out;
}

/** The text of the heading's kicker markup: inside the <h1>, or an element just before it (or before the one
 * element that wraps it) whose class names a kicker. Null when there is none. */
function markupKicker(h1: Element): string | null {
  const inside: string[] = [];
  for (const e of elementsInOrder(h1, isKicker)) if (e !== h1 && isKicker(e)) inside.push(textOf(e));
  const found = cleanInline(inside.join(" "));
  if (found) return found;
  for (let node: Element | null = h1, up = 0; node && up < 2; up++) {
    let prev = node.prev;
    for (let n = 0; prev && n < 3; prev = prev.prev) {
      if (prev.type !== "tag") continue;
      n++;
      const e = prev as Element;
      const t = isKicker(e) ? cleanInline(textOf(e)) : "";
      if (t) return t;
    }
    // Up one level only when the heading is its parent's one element child (a wrapper around it).
    const parent: AnyNode | null = node.parent;
    node =
      parent &&
      parent.type === "tag" &&
      (parent as Element).children.filter((c) => c.type === "tag").length === 1
        ? (parent as Element)
        : null;
  }
  return null;
}

function isKicker(e: Element): boolean {
  return KICKER.test(`${e.attribs.class ?? ""} ${e.attribs.id ?? ""}`);
}

function isKickerOrHidden(e: Element): boolean {
  if (e.name === "rt" || e.name === "rp") return true;
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
export function headingCandidates(h1s: Element[]): {
  h1: string[];
  /** Each <h1>'s kicker markup text (markupKicker), in the order of `h1`; null where it has none. */
  h1Kicker: (string | null)[];
  crumbH1: string[];
  logoH1: string[];
} {
  const inside: [string, string | null][] = [];
  const outside: [string, string | null][] = [];
  const crumbH1: string[] = [];
  const logoH1: string[] = [];
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
    if (crumb) crumbH1.push(text.replaceAll(PART, ""));
    else if (!inArticle && !cleanInline(text.replaceAll(PART, ""))) {
      const logo = logoText(el);
      if (logo) logoH1.push(logo);
    } else (inArticle ? inside : outside).push([text, markupKicker(el)]);
  }
  const h1 = [...inside, ...outside];
  return { h1: h1.map(([t]) => t), h1Kicker: h1.map(([, k]) => k), crumbH1, logoH1 };
}

/** The alt text of the image an empty <h1> shows (a site logo outside the article), or null. */
function logoText(h1: Element): string | null {
  for (const e of elementsInOrder(h1)) {
    if (e.name !== "img") continue;
    const alt = cleanInline(e.attribs.alt ?? "");
    return alt.length >= 2 && alt.length <= 80 ? alt : null;
  }
  return null;
}
