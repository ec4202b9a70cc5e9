/**
 * The project's one HTML entity table and decoder, for the entities that survive parsing: text a page
 * double-escapes (`&amp;nbsp;`), JSON-LD and feed strings that carry them, and syndicated copies.
 * The named entities are the ones seen in news text (quotes, dashes, Latin-1 letters, symbols); unknown
 * names are left as written.
 */

const HTML_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  hellip: "\u2026",
  mdash: "\u2014",
  ndash: "\u2013",
  rsquo: "\u2019",
  lsquo: "\u2018",
  rdquo: "\u201d",
  ldquo: "\u201c",
  sbquo: "\u201a",
  bdquo: "\u201e",
  laquo: "\u00ab",
  raquo: "\u00bb",
  middot: "\u00b7",
  bull: "\u2022",
  shy: "\u00ad",
  zwj: "\u200d",
  zwnj: "\u200c",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  Auml: "Ä",
  Ouml: "Ö",
  Uuml: "Ü",
  szlig: "ß",
  eacute: "é",
  egrave: "è",
  ecirc: "ê",
  aacute: "á",
  agrave: "à",
  acirc: "â",
  iacute: "í",
  oacute: "ó",
  uacute: "ú",
  ccedil: "ç",
  ntilde: "ñ",
  euro: "\u20ac",
  pound: "\u00a3",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  deg: "\u00b0",
};

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));/g;

function codePoint(cp: number): string | null {
  if (cp <= 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  return String.fromCodePoint(cp);
}

/**
 * Numeric and named entities decoded (a name as written, else lower-cased: `&Auml;`, `&AMP;`).
 * `overrides` replaces entries of the table for one consumer's purpose.
 */
export function decodeHtmlEntities(s: string, overrides?: Readonly<Record<string, string>>): string {
  if (!s.includes("&")) return s;
  return s.replace(ENTITY, (whole, dec?: string, hex?: string, name?: string) => {
    if (dec !== undefined) return codePoint(Number.parseInt(dec, 10)) ?? whole;
    if (hex !== undefined) return codePoint(Number.parseInt(hex, 16)) ?? whole;
    const n = name ?? "";
    const lowerName = n.toLowerCase();
    return overrides?.[n] ?? HTML_ENTITIES[n] ?? overrides?.[lowerName] ?? HTML_ENTITIES[lowerName] ?? whole;
  });
}
