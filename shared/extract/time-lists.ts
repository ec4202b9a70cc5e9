/**
 * <time> elements that are items of a list: comments, teasers and related stories repeat one structure,
 * each with its own date, while the article's byline <time> sits in a structure of its own. A <time> whose
 * ancestry (tag and class, LIST_LEVELS up) another <time> on the page repeats is an item, not the byline.
 */
import { type Element, isElement } from "./dom";

const LIST_LEVELS = 3;

function shapeOf(el: Element): string {
  let key = `${el.name}.${el.attribs.class ?? ""}`;
  let p = el.parent;
  for (let level = 0; level < LIST_LEVELS && p && isElement(p); level++, p = p.parent)
    key += `<${p.name}.${p.attribs.class ?? ""}`;
  return key;
}

/** The <time>s among `times` whose structure another of them repeats. */
export function listedTimes(times: readonly Element[]): Set<Element> {
  const byShape = new Map<string, Element[]>();
  for (const t of times) {
    const key = shapeOf(t);
    const same = byShape.get(key);
    if (same) same.push(t);
    else byShape.set(key, [t]);
  }
  const out = new Set<Element>();
  for (const same of byShape.values()) if (same.length > 1) for (const t of same) out.add(t);
  return out;
}
