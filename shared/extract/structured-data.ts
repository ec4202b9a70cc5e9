/**
 * JSON-LD: parse every block (tolerating the usual breakage), flatten arrays, @graph and nesting, and pick
 * the object describing this page's article. Never throws.
 */

import { decodeHtmlEntities } from "../text/html-entities";

export type JsonObject = Record<string, unknown>;

const ARTICLE_TYPES = new Set([
  "newsarticle",
  "article",
  "reportagenewsarticle",
  "analysisnewsarticle",
  "opinionnewsarticle",
  "backgroundnewsarticle",
  "reviewnewsarticle",
  "askpublicnewsarticle",
  "factcheck",
  "blogposting",
  "liveblogposting",
  "socialmediaposting",
  "discussionforumposting",
  "report",
  "scholarlyarticle",
  "techarticle",
  "satiricalarticle",
  "review",
  "videoobject",
  "podcastepisode",
  "recipe",
  "creativework",
]);
const PAGE_TYPES = new Set([
  "webpage",
  "itempage",
  "aboutpage",
  "collectionpage",
  "medicalwebpage",
  "qapage",
]);

// biome-ignore lint/suspicious/noControlCharactersInRegex: raw control characters are what breaks JSON-LD.
const CONTROL_CHARS = /[\u0000-\u001f]+/g;

/**
 * Deepest nesting JSON.parse is given: real JSON-LD nests a handful of levels (@graph, author, address).
 * A block nested deeper is read field by field (salvage) instead: 2.6 million nested arrays (a 5 MiB
 * page) took 270 MB to parse, past the fetch function's 256 MB (bench/memory-at-caps.ts).
 */
const MAX_JSON_DEPTH = 64;

/** Whether brackets nest deeper than `max` outside strings (one pass, no allocation). */
function nestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/**
 * JSON.parse reviver: the parser leaves a <script>'s text as written, and publishers HTML-escape JSON-LD
 * strings ("Q&amp;A", "&#8217;"), so its strings are decoded here, once; nothing downstream decodes again.
 */
const decoded = (_key: string, v: unknown): unknown => (typeof v === "string" ? decodeHtmlEntities(v) : v);

/** Lenient JSON parse for JSON-LD blocks as pages serve them (entities in strings decoded). */
export function parseJsonLd(raw: string): unknown[] {
  let text = raw.trim();
  if (!text) return [];
  if (nestsDeeper(text, MAX_JSON_DEPTH)) return [salvage(text)].filter((o) => Object.keys(o).length > 0);
  text = text
    .replace(/^\s*<!--/, "")
    .replace(/-->\s*$/, "")
    .replace(/^\s*\/\/\s*<!\[CDATA\[/, "")
    .replace(/\/\/\s*\]\]>\s*$/, "")
    .trim();
  try {
    return [JSON.parse(text, decoded)];
  } catch {
    // Raw control characters inside strings, trailing commas, several objects back to back.
    const repaired = text
      .replace(CONTROL_CHARS, " ")
      .replace(/,\s*([}\]])/g, "$1")
      .replace(/}\s*{/g, "},{");
    try {
      const v = JSON.parse(repaired.startsWith("[") ? repaired : `[${repaired}]`, decoded);
      return Array.isArray(v) ? v : [v];
    } catch {
      return [salvage(text)].filter((o) => Object.keys(o).length > 0);
    }
  }
}

/** Field-by-field recovery from JSON-LD that will not parse. */
function salvage(text: string): JsonObject {
  const out: JsonObject = {};
  for (const key of ["@type", "headline", "datePublished", "dateModified", "dateCreated", "inLanguage"]) {
    const m = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){0,2000})"`).exec(text);
    if (m?.[1]) out[key] = decodeHtmlEntities(m[1].replace(/\\(["\\/])/g, "$1"));
  }
  const free = /"isAccessibleForFree"\s*:\s*"?(true|false)"?/i.exec(text);
  if (free?.[1]) out.isAccessibleForFree = free[1].toLowerCase() === "true";
  return out;
}

export function typesOf(o: JsonObject): string[] {
  const t = o["@type"];
  const list = Array.isArray(t) ? t : [t];
  return list
    .filter((x): x is string => typeof x === "string")
    .map((x) => x.replace(/^(?:https?:\/\/schema\.org\/|schema:)/i, "").toLowerCase());
}

/** Every object in the blocks, depth-first (arrays, @graph, nested properties), bounded. */
function flatten(values: unknown[], limit = 2000): JsonObject[] {
  const out: JsonObject[] = [];
  const stack: unknown[] = [...values].reverse();
  while (stack.length > 0 && out.length < limit) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v && typeof v === "object") {
      const o = v as JsonObject;
      out.push(o);
      const children: unknown[] = [];
      for (const [k, child] of Object.entries(o)) {
        if (k === "@context") continue;
        if (child && typeof child === "object") children.push(child);
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  return out;
}

function isArticleType(o: JsonObject): boolean {
  return typesOf(o).some((t) => ARTICLE_TYPES.has(t) || (t.endsWith("article") && t !== "articlesection"));
}

function isPageType(o: JsonObject): boolean {
  return typesOf(o).some((t) => PAGE_TYPES.has(t));
}

/**
 * Work bound of str() and names(): a value whose first 10,000 parts hold no name holds none worth
 * reading (real values are a string or a few objects). The walks are iterative, so JSON-LD nested
 * 100,000 arrays deep costs heap, not call stack.
 */
const MAX_VISITS = 10_000;

/** The first text in a value: a string, a number, or the @value, name or @id of an object, depth-first. */
export function str(v: unknown): string | null {
  const stack: unknown[] = [v];
  for (let visits = 0; stack.length > 0 && visits < MAX_VISITS; visits++) {
    const x = stack.pop();
    if (typeof x === "string") {
      const t = x.trim();
      if (t) return t;
    } else if (typeof x === "number") return String(x);
    else if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
    } else if (x && typeof x === "object") {
      const o = x as JsonObject;
      stack.push(o["@value"] ?? o.name ?? o["@id"]);
    }
  }
  return null;
}

/** Marks where a name list whose first entry alone counts (an array `name`) ends on names()' stack. */
class FirstOnly {
  constructor(readonly from: number) {}
}

/** Names from a string, an object with name, or an array of either (authors, publishers). */
export function names(v: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [v];
  for (let visits = 0; stack.length > 0 && visits < MAX_VISITS; visits++) {
    const x = stack.pop();
    if (x instanceof FirstOnly) {
      out.length = Math.min(out.length, x.from + 1);
    } else if (typeof x === "string") {
      if (x.trim()) out.push(x.trim());
    } else if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
    } else if (x && typeof x === "object") {
      const o = x as JsonObject;
      const n = o.name ?? o.legalName ?? o.alternateName;
      if (typeof n === "string" && n.trim()) out.push(n.trim());
      else if (Array.isArray(n)) stack.push(new FirstOnly(out.length), n);
      else {
        const given = typeof o.givenName === "string" ? o.givenName : "";
        const family = typeof o.familyName === "string" ? o.familyName : "";
        const full = `${given} ${family}`.trim();
        if (full) out.push(full);
      }
    }
  }
  return out;
}

export function boolOf(v: unknown): boolean | null {
  if (typeof v === "boolean") return v;
  if (typeof v === "string") {
    const s = v.trim().toLowerCase();
    if (s === "true" || s === "yes" || s === "1") return true;
    if (s === "false" || s === "no" || s === "0") return false;
  }
  return null;
}

export interface StructuredData {
  /** The page's article object, if any. */
  article: JsonObject | null;
  /** A WebPage-like object (fallback for dates and names). */
  page: JsonObject | null;
  all: JsonObject[];
}

function urlPath(u: unknown): string | null {
  const s = str(u);
  if (!s) return null;
  try {
    const p = new URL(s, "https://x.invalid/");
    return p.pathname.replace(/\/+$/, "");
  } catch {
    return null;
  }
}

export function readStructuredData(blocks: string[], pageUrl: string): StructuredData {
  const parsed: unknown[] = [];
  for (const b of blocks) {
    try {
      parsed.push(...parseJsonLd(b));
    } catch {
      // Tolerate anything: a broken block is just not evidence.
    }
  }
  const all = flatten(parsed);
  const articles = all.filter(isArticleType);
  let path: string | null = null;
  try {
    path = new URL(pageUrl).pathname.replace(/\/+$/, "");
  } catch {
    path = null;
  }
  // Several article objects (related items, lists): prefer the one about this URL, then one with a body,
  // then the first with a headline and a date.
  const score = (o: JsonObject): number => {
    let s = 0;
    const t = typesOf(o);
    if (t.some((x) => x.includes("article") || x.includes("posting"))) s += 2;
    if (path !== null) {
      const own = urlPath(o.url) ?? urlPath(o.mainEntityOfPage) ?? urlPath(o["@id"]);
      if (own !== null && own === path) s += 4;
    }
    if (typeof o.articleBody === "string" && o.articleBody.length > 200) s += 2;
    if (o.headline) s += 1;
    if (o.datePublished) s += 1;
    return s;
  };
  let article: JsonObject | null = null;
  let best = -1;
  for (const o of articles) {
    const s = score(o);
    if (s > best) {
      best = s;
      article = o;
    }
  }
  const page = all.find(isPageType) ?? null;
  return { article, page, all };
}
