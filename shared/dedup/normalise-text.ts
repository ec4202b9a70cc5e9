/**
 * Text normalisation before shingling: HTML entities decoded (syndicated copies often carry
 * `&#8217;`, `&amp;`…), then Unicode NFKC (full-width forms, ligatures, no-break spaces, compatibility
 * digits). Case is kept here because entity detection needs it; the scanner in shingles.ts folds
 * case per character with foldChar().
 */

import { decodeHtmlEntities as decodeEntities } from "../text/html-entities";

// An encoded soft hyphen goes: it would split a word into two shingle tokens.
const DEDUP_ENTITIES = { shy: "" };
const NON_ASCII_RE = /[\u0080-\uffff]/;

/** Decodes numeric and common named HTML entities (shared/text/html-entities.ts); unknown names are left as written. */
export function decodeHtmlEntities(text: string): string {
  return decodeEntities(text, DEDUP_ENTITIES);
}

/** Entities decoded, NFKC applied (skipped for pure ASCII, where it is the identity). Case kept. */
export function normaliseText(text: string): string {
  const decoded = decodeHtmlEntities(text);
  return NON_ASCII_RE.test(decoded) ? decoded.normalize("NFKC") : decoded;
}

/**
 * Case folding of one non-ASCII code point: toLowerCase plus the full foldings that matter for
 * matching (ß/ẞ → ss, final sigma → σ). ASCII is folded inline by the scanner, which remembers the
 * rest per code point (Shingler in shingles.ts).
 */
export function foldChar(cp: number): string {
  const folded = String.fromCodePoint(cp).toLowerCase();
  if (folded === "ß") return "ss";
  return folded === "ς" ? "σ" : folded;
}
