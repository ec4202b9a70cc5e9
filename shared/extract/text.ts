/** Text normalisation shared by the extractor: whitespace, invisible characters, entity leftovers. */

import { decodeHtmlEntities as decodeEntities } from "../text/html-entities";

// Only the byte-order mark goes: soft hyphens and zero-width characters are part of the text as published.
const INVISIBLE = /\ufeff/g;
const SPACES = /[\s\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/g;
/**
 * Wide East Asian characters (Han, kana, CJK punctuation, full- and half-width forms; not the ideographic
 * space, nor Hangul, which is written with spaces): the scripts written without spaces between words.
 */
const WIDE =
  "\u2e80-\u2fff\u3001-\u303f\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff9f\uffe0-\uffe6";
const HAS_WIDE = new RegExp(`[${WIDE}]`);
/**
 * A line break in the source between two wide characters, with the spaces around it: CSS Text 3's segment
 * break transformation removes it (a page written without spaces breaks its source lines anywhere, often
 * where inline elements meet; a space there would split one word in two).
 */
const WIDE_BREAK = new RegExp(`(?<=[${WIDE}])[ \\t]*[\\r\\n][\\s\\u00a0]*(?=[${WIDE}])`, "g");

/** One line: entities decoded, invisible characters dropped, whitespace runs collapsed, trimmed. */
export function cleanInline(s: string): string {
  if (isBlank(s)) return "";
  let d = decodeEntities(s);
  if (d.includes("\ufeff")) d = d.replace(INVISIBLE, "");
  if (HAS_WIDE.test(d)) d = d.replace(WIDE_BREAK, "");
  return d.replace(SPACES, " ").trim();
}

/** Only whitespace (the text between block tags usually is): a char loop, cheaper than three regex passes. */
function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12 && c !== 160) return false;
  }
  return true;
}

/** Multi-paragraph text: each paragraph cleaned, paragraphs separated by one blank line. */
export function cleanParagraphs(s: string): string {
  return decodeEntities(s)
    .replace(INVISIBLE, "")
    .split(/\n\s*\n|\r\n\s*\r\n/)
    .map((p) => p.replace(SPACES, " ").trim())
    .filter((p) => p.length > 0)
    .join("\n\n");
}

/** Letters and digits outside ASCII: anything but the punctuation, symbol and space blocks. */
function isWordCode(c: number): boolean {
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (c <= 0xbf) return false;
  if (c === 0xd7 || c === 0xf7) return false;
  if (c >= 0x2000 && c <= 0x2bff) return false;
  if (c >= 0x3000 && c <= 0x303f) return false;
  if (c >= 0xfe00 && c <= 0xfe6f) return false;
  if (c >= 0xff00 && c <= 0xff0f) return false;
  return c !== 0xfeff;
}

/** Words as the word count sees them: runs of letters or digits (a char loop: this runs on every body). */
export function countWords(s: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const word = isWordCode(s.charCodeAt(i));
    if (word && !inWord) n++;
    inWord = word;
  }
  return n;
}

/** Strips HTML tags from a string that should have been text (JSON-LD articleBody sometimes holds markup). */
export function stripTags(s: string): string {
  if (!s.includes("<")) return s;
  return s.replace(/<\s*(?:br|\/p|\/div|\/h[1-6]|\/li)\s*\/?>/gi, "\n\n").replace(/<[^>]{0,2000}>/g, "");
}
