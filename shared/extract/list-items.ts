/**
 * Elements that are items of a list: comments, teasers and related stories repeat one structure, each
 * with its own date and byline, while the article's byline sits in a structure of its own. An element
 * whose shape (tag and class, LIST_LEVELS up) another one repeats under a different grandparent is an
 * item; two authors' links side by side in one byline share their grandparent and are not.
 */
import { type AnyNode, type Element, isElement } from "./dom";

const LIST_LEVELS = 3;

function shapeOf(el: Element): string {
  let key = `${el.name}.${el.attribs.class ?? ""}`;
  let p = el.parent;
  for (let level = 0; level < LIST_LEVELS && p && isElement(p); level++, p = p.parent)
    key += `<${p.name}.${p.attribs.class ?? ""}`;
  return key;
}

/** The elements among `els` whose shape another of them repeats elsewhere. */
export function listItems(els: readonly Element[]): Set<Element> {
  const byShape = new Map<string, Element[]>();
  for (const el of els) {
    const key = shapeOf(el);
    const same = byShape.get(key);
    if (same) same.push(el);
    else byShape.set(key, [el]);
  }
  const out = new Set<Element>();
  for (const same of byShape.values()) {
    if (same.length < 2) continue;
    const grandparents = new Set<AnyNode | null>(same.map((el) => el.parent?.parent ?? null));
    if (grandparents.size > 1) for (const el of same) out.add(el);
  }
  return out;
}
