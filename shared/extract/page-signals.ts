/**
 * One pass over the parsed page collecting everything but the body: meta tags, JSON-LD blocks, <title>,
 * <h1>, <time>, microdata itemprops, canonical link, <html lang>.
 */
import { type AnyNode, attr, type Element, isElement, rawText } from "./dom";

export interface PageSignals {
  htmlLang: string | null;
  title: string | null;
  /** Meta values by lower-cased name / property / http-equiv / itemprop ("itemprop:…"), in page order. */
  meta: Map<string, string[]>;
  canonicalLink: string | null;
  jsonLd: string[];
  h1: Element[];
  times: Element[];
  /** Microdata elements carrying an itemprop (not <meta>, which land in `meta`). */
  itemprops: Element[];
  /** itemtype values seen on the page (lower-cased). */
  itemtypes: string[];
}

function addMeta(meta: Map<string, string[]>, key: string, value: string): void {
  const k = key.trim().toLowerCase();
  if (!k) return;
  const list = meta.get(k);
  if (list) list.push(value);
  else meta.set(k, [value]);
}

export function collectSignals(doc: AnyNode): PageSignals {
  const s: PageSignals = {
    htmlLang: null,
    title: null,
    meta: new Map(),
    canonicalLink: null,
    jsonLd: [],
    h1: [],
    times: [],
    itemprops: [],
    itemtypes: [],
  };
  const visit = (node: AnyNode, inSvg: boolean): void => {
    if (!("children" in node)) return;
    for (const el of node.children) {
      if (!isElement(el)) continue;
      const name = el.name;
      const itemprop = el.attribs.itemprop;
      const itemtype = el.attribs.itemtype;
      if (itemtype) s.itemtypes.push(itemtype.toLowerCase());
      switch (name) {
        case "html":
          if (s.htmlLang === null) s.htmlLang = attr(el, "lang") ?? attr(el, "xml:lang") ?? null;
          break;
        case "title":
          if (s.title === null && !inSvg) s.title = rawText(el);
          continue;
        case "meta": {
          const content = attr(el, "content") ?? attr(el, "value");
          if (content === undefined) break;
          for (const key of ["name", "property", "http-equiv"]) {
            const v = attr(el, key);
            if (v) for (const part of v.split(/\s+/)) addMeta(s.meta, part, content);
          }
          if (itemprop) addMeta(s.meta, `itemprop:${itemprop}`, content);
          continue;
        }
        case "link": {
          const rel = attr(el, "rel")?.toLowerCase() ?? "";
          if (s.canonicalLink === null && /(?:^|\s)canonical(?:\s|$)/.test(rel))
            s.canonicalLink = attr(el, "href") ?? null;
          continue;
        }
        case "script": {
          const type = attr(el, "type")?.toLowerCase() ?? "";
          if (type.includes("ld+json")) s.jsonLd.push(rawText(el));
          continue;
        }
        case "style":
          continue;
        case "h1":
          s.h1.push(el);
          break;
        case "time":
          s.times.push(el);
          break;
      }
      if (itemprop) s.itemprops.push(el);
      visit(el, inSvg || name === "svg");
    }
  };
  visit(doc, false);
  return s;
}

/** First non-empty meta value among keys, in key priority order. */
export function metaValue(s: PageSignals, ...keys: string[]): string | null {
  for (const k of keys) {
    const v = s.meta.get(k);
    if (v) for (const x of v) if (x.trim()) return x.trim();
  }
  return null;
}
