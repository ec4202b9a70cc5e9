/**
 * One pass over the parsed page collecting everything but the body: meta tags, JSON-LD blocks, <title>,
 * <h1>, <time>, microdata itemprops, canonical link, <html lang>.
 */
import { type AnyNode, type Element, isElement, rawText } from "./dom";

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
  /**
   * Byline markup: rel="author", itemprop="author"/"creator", or a class/id naming a byline or an author, in
   * page order, with `bylineAt` their element positions (`h1At` likewise for `h1`), so a reader can take the
   * byline nearest the headline rather than a teaser's.
   */
  bylines: Element[];
  bylineAt: number[];
  h1At: number[];
}

const BYLINE_ATTR = /author|byline|writer/i;
/**
 * A link to an author's page: a path segment naming authors, then the author's slug ("/author/kathy-wise",
 * "/autoren/max-muster/", "/author/180/"), the archive link blogs and CMSs put in a byline.
 */
const AUTHOR_HREF =
  /\/(?:authors?|autor(?:en|in)?|auteurs?|autore|writers?|journalists?|redakteur(?:in)?)\/[^/?#]+\/?(?:[?#]|$)/i;

function addMeta(meta: Map<string, string[]>, key: string, value: string): void {
  const k = key.trim().toLowerCase();
  if (!k) return;
  const list = meta.get(k);
  if (list) list.push(value);
  else meta.set(k, [value]);
}

function emptySignals(): PageSignals {
  return {
    htmlLang: null,
    title: null,
    meta: new Map(),
    canonicalLink: null,
    jsonLd: [],
    h1: [],
    times: [],
    itemprops: [],
    itemtypes: [],
    bylines: [],
    bylineAt: [],
    h1At: [],
  };
}

function addMetaKeys(meta: Map<string, string[]>, keys: string | undefined, content: string): void {
  if (keys) for (const part of keys.split(/\s+/)) addMeta(meta, part, content);
}

/**
 * Takes the page's elements one at a time, in document order (parents before children), so the body survey
 * can collect the signals in its own walk over the page.
 */
export class SignalCollector {
  readonly signals = emptySignals();
  /** Elements seen so far: the position of the next one. */
  private seen = 0;
  /** BYLINE_ATTR's verdict per class attribute: classes repeat across a page's elements. */
  private readonly bylineClasses = new Map<string, boolean>();

  private namesByline(cls: string): boolean {
    let v = this.bylineClasses.get(cls);
    if (v === undefined) {
      v = BYLINE_ATTR.test(cls);
      // Bounded: a hostile page's distinct classes are not all remembered.
      if (this.bylineClasses.size < 20_000) this.bylineClasses.set(cls, v);
    }
    return v;
  }

  /**
   * Notes one element (a tag, <script> or <style>); false when nothing below it is a page signal (the walk
   * may still descend for other reasons, but must not pass those descendants here).
   */
  element(el: Element, inSvg: boolean): boolean {
    const s = this.signals;
    const name = el.name;
    const a = el.attribs;
    const itemprop = a.itemprop;
    const itemtype = a.itemtype;
    const at = this.seen++;
    if (itemtype) s.itemtypes.push(itemtype.toLowerCase());
    switch (name) {
      case "html":
        if (s.htmlLang === null) s.htmlLang = a.lang ?? a["xml:lang"] ?? null;
        break;
      case "title":
        if (s.title === null && !inSvg) s.title = rawText(el);
        return false;
      case "meta": {
        const content = a.content ?? a.value;
        if (content === undefined) break;
        addMetaKeys(s.meta, a.name, content);
        addMetaKeys(s.meta, a.property, content);
        addMetaKeys(s.meta, a["http-equiv"], content);
        if (itemprop) addMeta(s.meta, `itemprop:${itemprop}`, content);
        return false;
      }
      case "link": {
        const rel = a.rel?.toLowerCase() ?? "";
        if (s.canonicalLink === null && /(?:^|\s)canonical(?:\s|$)/.test(rel))
          s.canonicalLink = a.href ?? null;
        return false;
      }
      case "script": {
        const type = a.type?.toLowerCase() ?? "";
        if (type.includes("ld+json")) s.jsonLd.push(rawText(el));
        return false;
      }
      case "style":
        return false;
      case "h1":
        s.h1.push(el);
        s.h1At.push(at);
        break;
      case "time":
        s.times.push(el);
        break;
      case "abbr":
        // <abbr class="published" title="2016-03-07T10:00:00+01:00">: the microformat date, read as a <time>.
        if (a.title !== undefined || a["data-utime"] !== undefined) s.times.push(el);
        break;
    }
    if (itemprop) s.itemprops.push(el);
    if (
      (a.class !== undefined && this.namesByline(a.class)) ||
      (a.id !== undefined && BYLINE_ATTR.test(a.id)) ||
      (a.rel !== undefined && BYLINE_ATTR.test(a.rel)) ||
      (itemprop !== undefined && /author|creator/i.test(itemprop)) ||
      (name === "a" && a.href !== undefined && AUTHOR_HREF.test(a.href))
    ) {
      s.bylines.push(el);
      s.bylineAt.push(at);
    }
    return true;
  }
}

export function collectSignals(doc: AnyNode): PageSignals {
  const c = new SignalCollector();
  const visit = (node: AnyNode, inSvg: boolean): void => {
    if (!("children" in node)) return;
    for (const el of node.children) {
      if (!isElement(el)) continue;
      if (c.element(el, inSvg)) visit(el, inSvg || el.name === "svg");
    }
  };
  visit(doc, false);
  return c.signals;
}

/** First non-empty meta value among keys, in key priority order. */
export function metaValue(s: PageSignals, ...keys: string[]): string | null {
  for (const k of keys) {
    const v = s.meta.get(k);
    if (v) for (const x of v) if (x.trim()) return x.trim();
  }
  return null;
}
