/**
 * One byline string as the names it gives: the labels ("By", "Von", "Par", "著者："), e-mail addresses,
 * dates, weekdays, roles after a separator and bracketed notes dropped, several names split on
 * conjunctions and commas. Every source of authors.ts reads its strings through it.
 */
import { scanDates } from "./date-parse";
import { cleanInline } from "./text";

/** A name is at most this many words (longer text is a bio, a role or a sentence). */
const MAX_NAME_WORDS = 6;
const MAX_NAME_CHARS = 80;

/**
 * Leading byline labels: "By", "Von", "Par", "Por", "Di", "Door", "Av", "Af", "Av:", "Text:", "著者：", "文●".
 * Generic to bylines in the languages the evaluation sets cover, not to any site.
 */
const LABEL =
  /^(?:(?:by)+|von|par|por|di|da|door|av|af|de|from|written by|words by|text|texte|texto|tekst|autor|autorin|auteur|author|reporter|著者|文|記者)(?:\s*[:：●・]\s*|\s+|$)/iu;
const SEPARATOR = /\s*(?:[|·•—–\n\r\t]|\s-\s|\/\s)\s*/u;
/**
 * Between names: "&" and ";" except as the two ends of an entity the page shows as written ("Tom &amp; Jerry"
 * in a double-escaped meta tag is one byline, not "Tom", "amp" and "Jerry").
 */
const CONJUNCTION =
  /\s*(?:[、，]|&(?!#?[a-z0-9]{2,8};)|(?<!&#?[a-z0-9]{2,8});)\s*|\s+(?:and|und|og|och|et|y|e|en|i|a|and the)\s+/iu;
const WEEKDAY_AFTER =
  /\s+(?:on\s+|am\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:mon|diens|donners|frei|sams|sonn)tag|mittwoch)\b.*$/iu;
const NOT_A_NAME = /https?:|www\.|@|\.(?:com|org|net|de|jp)\b/i;
/** A byline box's share and profile buttons: the name of a network or an action, never an author's. */
const BUTTON =
  /^(?:facebook|twitter|x|instagram|linkedin|whatsapp|telegram|pinterest|reddit|youtube|tiktok|threads|bluesky|mastodon|flipboard|e-?mail|mail|share|teilen|drucken|print|rss|follow|folgen)$/i;

/** One byline string as names: labels, e-mail addresses, dates, roles after a separator dropped. */
export function namesFromByline(raw: string): string[] {
  // "Name (Bureau, role)": what is in brackets describes the name.
  let s = cleanInline(raw).replace(/\s*[(（][^)）]*[)）]/gu, " ");
  if (!s) return [];
  // A date in the byline ends the names ("JOSH HASKELL December 16, 2016, 4:19 PM").
  const date = scanDates(s, 5)[0];
  if (date && date.index > 0) s = s.slice(0, date.index);
  // "Minh Do on Monday": a weekday ends the names too.
  s = s.replace(WEEKDAY_AFTER, "");
  for (let i = 0; i < 3; i++) s = s.replace(LABEL, "");
  const first = s.split(SEPARATOR).find((p) => p.trim().length > 0) ?? "";
  const out: string[] = [];
  for (const part of first.split(CONJUNCTION)) {
    // Commas split names when every piece is name-sized; otherwise "Name, role, place": the name is first.
    const pieces = part.split(/\s*,\s*/);
    const list = pieces.every((p) => p.split(/\s+/).length <= 4) ? pieces : pieces.slice(0, 1);
    for (const p of list) {
      const name = p
        .replace(LABEL, "")
        .replace(/^[\s,.:;([{【《]+|[\s,.:;)\]}】》]+$/gu, "")
        .trim();
      if (isName(name)) out.push(name);
    }
  }
  return out;
}

function isName(s: string): boolean {
  if (s.length < 2 || s.length > MAX_NAME_CHARS || NOT_A_NAME.test(s) || /\d/.test(s)) return false;
  const words = s.split(/\s+/);
  return words.length <= MAX_NAME_WORDS && /\p{L}/u.test(s) && !words.every((w) => BUTTON.test(w));
}
