/**
 * Text normalisation before shingling: HTML entities decoded (syndicated copies often carry
 * `&#8217;`, `&amp;`…), then Unicode NFKC (full-width forms, ligatures, no-break spaces, compatibility
 * digits). Case is kept here because entity detection needs it; the scanner in shingles.ts folds
 * case per character with foldChar().
 */

const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ndash: "\u2013",
  mdash: "\u2014",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  sbquo: "\u201a",
  bdquo: "\u201e",
  hellip: "\u2026",
  laquo: "\u00ab",
  raquo: "\u00bb",
  middot: "\u00b7",
  bull: "\u2022",
  euro: "\u20ac",
  pound: "\u00a3",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  deg: "\u00b0",
  shy: "",
  zwj: "\u200d",
  zwnj: "\u200c",
};

const ENTITY_RE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));/g;
const NON_ASCII_RE = /[\u0080-\uffff]/;

function codePointOrNull(cp: number): string | null {
  if (cp <= 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  return String.fromCodePoint(cp);
}

/** Decodes numeric and common named HTML entities; unknown names are left as written. */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(ENTITY_RE, (whole, dec?: string, hex?: string, name?: string) => {
    if (dec !== undefined) return codePointOrNull(Number.parseInt(dec, 10)) ?? whole;
    if (hex !== undefined) return codePointOrNull(Number.parseInt(hex, 16)) ?? whole;
    return NAMED[(name ?? "").toLowerCase()] ?? whole;
  });
}

/** Entities decoded, NFKC applied (skipped for pure ASCII, where it is the identity). Case kept. */
export function normaliseText(text: string): string {
  const decoded = decodeHtmlEntities(text);
  return NON_ASCII_RE.test(decoded) ? decoded.normalize("NFKC") : decoded;
}

const foldCache = new Map<number, string>();

/**
 * Case folding of one non-ASCII code point: toLowerCase plus the full foldings that matter for
 * matching (ß/ẞ → ss, final sigma → σ). ASCII is folded inline by the scanner.
 */
export function foldChar(cp: number): string {
  let folded = foldCache.get(cp);
  if (folded === undefined) {
    folded = String.fromCodePoint(cp).toLowerCase();
    if (folded === "ß") folded = "ss";
    else if (folded === "ς") folded = "σ";
    foldCache.set(cp, folded);
  }
  return folded;
}

/** Whole-string case folding with the same rules as foldChar (for tests and callers). */
export function foldCase(text: string): string {
  return text.toLowerCase().replace(/ß/g, "ss").replace(/ς/g, "σ");
}
