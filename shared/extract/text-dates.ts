/**
 * Last-resort publication date from visible text: a date introduced as the publication date ("Published on",
 * "Erschienen am", …), then elements whose class/id says date/time/published/byline, then the first date
 * after the headline, then chrono-node over the text, then an "… ago" date against the fetch time (when
 * no absolute date is on the page). Returns a stated day, and an instant only when the text states a
 * timezone or an "… ago" in minutes or hours gives one.
 */
import type { ParsedResult } from "chrono-node";
// Only the locales used, by subpath: the package index builds every locale's parsers at import,
// twice the start-up time of these five.
import { strict as deStrict } from "chrono-node/de";
import { strict as enStrict } from "chrono-node/en";
import { strict as esStrict } from "chrono-node/es";
import { strict as frStrict } from "chrono-node/fr";
import { strict as nlStrict } from "chrono-node/nl";
import { PUBLISHED_BEFORE, UPDATED_BEFORE } from "./date-labels";
import { type DateMatch, isoInstant, parseStatedDate, type StatedDate, scanDates } from "./date-parse";
import { type AnyNode, type Element, isElement, textOf } from "./dom";
import { isSpace } from "./is-space";
import { scanRelativeDates } from "./relative-dates";

const DATEISH =
  /(?:^|[-_\s])(?:date|dates|time|timestamp|published|publish|pubdate|posted|post-?date|post-?meta|entry-?date|entry-?meta|byline|dateline|meta|article-?meta|datum|fecha|data|zeit|info|article-?info|post-?info|submitted|created)(?:$|[-_\s])/i;
const SKIP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "head",
  "nav",
  "select",
  "option",
  "button",
  "textarea",
]);
const BLOCK = new Set([
  "p",
  "div",
  "br",
  "li",
  "td",
  "tr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "section",
  "article",
  "header",
  "footer",
  "span",
  "time",
  "dd",
  "dt",
]);

interface PageText {
  text: string;
  /** Offset of the first <h1> in text, or -1. */
  h1: number;
}

/** s.replace(/\s+/g, " "), without the regex and the copy when s has no whitespace but single spaces. */
function collapseSpaces(s: string): string {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (isSpace(c) && (c !== 32 || (i + 1 < n && isSpace(s.charCodeAt(i + 1)))))
      return s.replace(/\s+/g, " ");
  }
  return s;
}

/** Visible text with whitespace collapsed as it is built, so offsets (the h1's) measure real distance. */
function pageText(root: AnyNode, maxChars = 20_000): PageText {
  let text = "";
  let h1 = -1;
  // The last character written, tracked here: endsWith() on a string being built flattens it every time.
  let last = "\n";
  const go = (n: AnyNode): void => {
    if (text.length > maxChars) return;
    if (n.type === "text") {
      const t = collapseSpaces((n as unknown as { data: string }).data);
      if (t === "" || (t === " " && (last === " " || last === "\n"))) return;
      text += t;
      last = t[t.length - 1]!;
      return;
    }
    if (!("children" in n)) return;
    if (isElement(n)) {
      if (n.type !== "tag" || SKIP.has(n.name)) return;
      if (n.name === "h1" && h1 < 0) h1 = text.length;
    }
    for (const c of n.children) go(c);
    if (isElement(n) && BLOCK.has(n.name) && last !== "\n") {
      text += "\n";
      last = "\n";
    }
  };
  go(root);
  return { text, h1 };
}

function plausible(d: StatedDate, now: Date): boolean {
  const t = Date.parse(`${d.day}T00:00:00Z`);
  return t <= now.getTime() + 86_400_000 && t >= Date.UTC(1995, 0, 1);
}

/** An element's text with a space after each element (words of adjacent blocks stay apart), capped. */
function elementText(node: AnyNode, limit: number): string {
  if (node.type === "text") return (node as unknown as { data: string }).data;
  if (!isElement(node) || node.type !== "tag" || SKIP.has(node.name)) return "";
  return textOf(node, { skip: skipped, after: " ", limit });
}

const skipped = (el: Element): boolean => SKIP.has(el.name);

const NOT_PUBLISHED = /modif|updat|comment|weather|wetter/i;

/** Class/id/itemprop naming a date (not an update, a comment's or the weather's). */
function isDateish(ci: string): boolean {
  return DATEISH.test(ci) && !NOT_PUBLISHED.test(ci);
}

function fromDateishElements(root: AnyNode, now: Date, dayFirst: boolean): StatedDate | null {
  let found: StatedDate | null = null;
  const visit = (node: AnyNode): void => {
    if (found || !("children" in node)) return;
    for (const c of node.children) {
      if (found) return;
      if (!isElement(c) || c.type !== "tag" || SKIP.has(c.name)) continue;
      const a = c.attribs;
      if (
        (a.class || a.id || a.itemprop) &&
        isDateish(`${a.class ?? ""} ${a.id ?? ""} ${a.itemprop ?? ""}`)
      ) {
        const t = elementText(c, 300);
        if (t.length < 300) {
          const d = scanDates(t, 200, { dayFirst }).find(
            (m) => plausible(m.date, now) && !UPDATED_BEFORE.test(t.slice(0, m.index)),
          );
          if (d) {
            found = d.date;
            return;
          }
        }
      }
      visit(c);
    }
  };
  visit(root);
  return found;
}

function fromChrono(text: string, now: Date): StatedDate | null {
  const sample = text.slice(0, 3000);
  for (const parser of [enStrict, deStrict, frStrict, esStrict, nlStrict]) {
    let results: ParsedResult[];
    try {
      results = parser.parse(sample, now);
    } catch {
      continue;
    }
    for (const r of results) {
      const c = r.start;
      if (!c.isCertain("year") || !c.isCertain("month") || !c.isCertain("day")) continue;
      if (!/\d{4}/.test(r.text)) continue;
      const y = c.get("year");
      const m = c.get("month");
      const d = c.get("day");
      if (!y || !m || !d) continue;
      const day = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
      let instant: string | null = null;
      if (c.isCertain("hour") && c.isCertain("timezoneOffset")) instant = isoInstant(c.date().getTime());
      const sd: StatedDate = { day, instant, hasTime: c.isCertain("hour") };
      if (plausible(sd, now)) return sd;
    }
  }
  return null;
}

/** `dayFirst` false reads slash dates month first (a US English page). */
export function findTextDate(root: AnyNode, now: Date, dayFirst = true): StatedDate | null {
  const { text, h1 } = pageText(root);
  const all = scanDates(text, 200, { dayFirst }).filter((m) => plausible(m.date, now));
  const introduced = all.find((m) => isIntroducedAsPublished(text, m) || isWireDateline(text, m));
  if (introduced) return introduced.date;
  const nearHeadline = h1 >= 0 ? nearest(text, all, h1) : undefined;
  if (nearHeadline) return nearHeadline.date;
  // A page's "updated"/"Stand:" date beats a date mentioned in the text.
  const stated = all.find((m) => isModified(text, m));
  if (stated) return stated.date;
  const first = all.find((m) => !isModified(text, m));
  // Without a headline to anchor on, the first date in reading order beats date-classed widgets.
  if (first && h1 < 0) return first.date;
  const marked = fromDateishElements(root, now, dayFirst);
  if (marked) return marked;
  if (first) return first.date;
  return (
    fromChrono(h1 >= 0 ? text.slice(h1) : text, now) ??
    parseFallback(text, now, dayFirst) ??
    relativeDate(text, h1, now)
  );
}

/** No absolute date anywhere: the first "… ago" around the headline (a byline sits just above or below it). */
function relativeDate(text: string, h1: number, now: Date): StatedDate | null {
  const region = text.slice(Math.max(0, h1 - 300), Math.max(0, h1) + 3000);
  const m = scanRelativeDates(region, now).find(
    (r) => !UPDATED_BEFORE.test(region.slice(Math.max(0, r.index - 40), r.index)),
  );
  return m?.date ?? null;
}

/**
 * The date closest to the headline: a dateline sits just above or below it. Dates after the headline count
 * up to 1500 characters away, dates before it up to 300 (further up is the site header).
 */
function nearest(text: string, all: DateMatch[], h1: number): DateMatch | undefined {
  let best: DateMatch | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const m of all) {
    const before = m.index < h1;
    const distance = before ? (h1 - m.end) * 2 : m.index - h1;
    if (distance > (before ? 600 : 1500) || isModified(text, m)) continue;
    if (distance < bestDistance) {
      best = m;
      bestDistance = distance;
    }
  }
  return best;
}

export function isIntroducedAsPublished(text: string, m: DateMatch): boolean {
  const before = text.slice(Math.max(0, m.index - 40), m.index);
  return PUBLISHED_BEFORE.test(before) && !isModified(text, m);
}

/** "January 18, 2020 PARIS (Reuters) -": the date of a wire dateline is the story's. */
function isWireDateline(text: string, m: DateMatch): boolean {
  return /^[\s,.–—-]*(?:\p{Lu}[\p{L} .,'/-]{1,40}\s*)?\((?:Reuters|AP|AFP|dpa|APA|KNA|epd|SDA|sda|ANSA|EFE|AAP|PA|UPI|Xinhua|CNN)\)/u.test(
    text.slice(m.end, m.end + 60),
  );
}

function isModified(text: string, m: DateMatch): boolean {
  return UPDATED_BEFORE.test(text.slice(Math.max(0, m.index - 40), m.index));
}

function parseFallback(text: string, now: Date, dayFirst: boolean): StatedDate | null {
  const d = parseStatedDate(text.slice(0, 3000), { epoch: false, dayFirst });
  return d && plausible(d, now) ? d : null;
}
