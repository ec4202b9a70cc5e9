/**
 * Text normalisation shared by the extractor: whitespace and invisible characters. No entity decoding: the
 * parser has decoded text and attribute values once, so an entity left in them is text the page shows
 * ("&lt;b&gt;" written as "&amp;lt;b&amp;gt;"); JSON-LD strings are decoded where they are parsed.
 */

import { isSpace } from "./is-space";

// Only the byte-order mark goes: soft hyphens and zero-width characters are part of the text as published.
const INVISIBLE = /\ufeff/g;
const SPACES = /[\s\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/g;
/** One line: invisible characters dropped, whitespace runs collapsed, trimmed. */
export function cleanInline(s: string): string {
  if (isBlank(s)) return "";
  if (isClean(s)) return s;
  return (s.includes("\ufeff") ? s.replace(INVISIBLE, "") : s).replace(SPACES, " ").trim();
}

/** Only whitespace (the text between block tags usually is): a char loop, cheaper than three regex passes. */
function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12 && c !== 160) return false;
  }
  return true;
}

/**
 * Already what cleanInline() makes of it (most strings it meets are): single plain spaces between words,
 * none at either end, no other whitespace and no byte-order mark. A char loop, where the replaces would
 * copy the string.
 */
function isClean(s: string): boolean {
  let space = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (space) return false;
      space = true;
    } else if (c !== 32 && isSpace(c)) return false;
    else space = false;
  }
  return !space;
}

/** Multi-paragraph text: each paragraph cleaned, paragraphs separated by one blank line. */
export function cleanParagraphs(s: string): string {
  return s
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
