/**
 * The byline as a line of text beside the headline, on templates that mark it with no author link, no
 * schema.org field and no byline class: a short element among the first after the headline's <h1> whose
 * text opens with a byline label ("By", "Von", "Par", "Por", "Door", "Av", "Af", "Text:", "Autor:") and a
 * capitalised word. One signal among the others (authors.ts), trusted least.
 */
import { type AnyNode, type Element, textOf } from "./dom";
import { cleanInline } from "./text";

/** Elements looked at after the <h1>: the byline sits within a few, before the body starts. */
const REACH = 40;
/** Longer text is a paragraph or a byline with a bio, a place and a date, not names alone. */
const MAX_CHARS = 100;
/** Raw text read per element, whitespace included (indented markup): past it the element is too long. */
const RAW_LIMIT = 1000;
/**
 * A label that only opens a byline, then a capitalised name. Prepositions that also open sentences in
 * their language ("de", "di", "da", "a") are left out: "By" stays, as a sentence opening with "By" and a
 * capital word is rare in a headline's first lines.
 */
const OPENS_BYLINE =
  /^(?:by|von|par|por|door|av|af|written by|words by|text|texte|texto|tekst|autor|autorin|auteur|author|reporter)(?:\s*[:：]\s*|\s+)\p{Lu}/iu;

/** The nodes after `from` in document order (its own subtree excluded), at most `limit` elements. */
function* following(from: Element, limit: number): Generator<Element> {
  let n = 0;
  for (let at: AnyNode | null = from; at; at = at.parent) {
    const parent = at.parent;
    if (!parent || !("children" in parent)) return;
    const siblings = parent.children;
    for (let i = siblings.indexOf(at as never) + 1; i < siblings.length; i++) {
      const stack: AnyNode[] = [siblings[i]!];
      while (stack.length > 0) {
        const x = stack.pop()!;
        if (x.type !== "tag") continue;
        const el = x as Element;
        yield el;
        if (++n >= limit) return;
        for (let c = el.children.length - 1; c >= 0; c--) stack.push(el.children[c]!);
      }
    }
  }
}

/** The text of the labelled byline line after the headline, else null. */
export function bylineLineAfter(h1: Element | null): string | null {
  if (!h1) return null;
  for (const el of following(h1, REACH)) {
    // Capped: the first element after the <h1> may wrap the whole article.
    const raw = textOf(el, { limit: RAW_LIMIT });
    if (raw.length > RAW_LIMIT) continue;
    const text = cleanInline(raw);
    if (text.length === 0 || text.length > MAX_CHARS) continue;
    if (OPENS_BYLINE.test(text)) return text;
  }
  return null;
}
