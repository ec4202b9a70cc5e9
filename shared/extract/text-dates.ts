/**
 * Last-resort publication date from visible text: elements whose class/id says date/time/published/byline,
 * then date expressions in the article text (regex forms, then chrono-node). Returns a stated day and an
 * instant only when the text states a timezone.
 */
import * as chrono from "chrono-node";
import { parseStatedDate, type StatedDate } from "./date-parse";
import { type AnyNode, type Element, isElement } from "./dom";

const DATEISH =
  /(?:^|[-_\s])(?:date|dates|time|times|timestamp|published|publish|pubdate|posted|post-?date|post-?meta|entry-?date|entry-?meta|byline|dateline|meta|article-?meta|datum|fecha|data|zeit|info|article-?info|post-?info|submitted|created)(?:$|[-_\s])/i;
const SKIP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "head",
  "nav",
  "footer",
  "aside",
  "select",
  "option",
]);

function textOf(node: AnyNode, limit = 400): string {
  let out = "";
  const go = (n: AnyNode): void => {
    if (out.length > limit) return;
    if (n.type === "text") {
      out += (n as unknown as { data: string }).data;
      return;
    }
    if (!isElement(n) || SKIP.has(n.name) || n.type !== "tag") return;
    for (const c of n.children) go(c);
    if (n.name === "p" || n.name === "div" || n.name === "br" || n.name === "li") out += " ";
  };
  go(node);
  return out;
}

function plausible(d: StatedDate, now: Date): boolean {
  const t = Date.parse(`${d.day}T00:00:00Z`);
  return t <= now.getTime() + 86_400_000 && t >= Date.UTC(1995, 0, 1);
}

function fromDateishElements(root: AnyNode, now: Date): StatedDate | null {
  let found: StatedDate | null = null;
  const visit = (node: AnyNode): void => {
    if (found || !("children" in node)) return;
    for (const c of node.children) {
      if (found) return;
      if (!isElement(c) || c.type !== "tag" || SKIP.has(c.name)) continue;
      const ci = `${c.attribs.class ?? ""} ${c.attribs.id ?? ""} ${c.attribs.itemprop ?? ""}`;
      if (ci.length > 1 && DATEISH.test(ci) && !/modif|updat|comment/i.test(ci)) {
        const t = textOf(c, 300);
        if (t.length < 300) {
          const d = parseStatedDate(t, { epoch: false });
          if (d && plausible(d, now)) {
            found = d;
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
  for (const parser of [
    chrono.strict,
    chrono.de.strict,
    chrono.fr.strict,
    chrono.es.strict,
    chrono.nl.strict,
  ]) {
    let results: chrono.ParsedResult[];
    try {
      results = parser.parse(sample, now);
    } catch {
      continue;
    }
    for (const r of results) {
      const c = r.start;
      if (!c.isCertain("year") || !c.isCertain("month") || !c.isCertain("day")) continue;
      const y = c.get("year");
      const m = c.get("month");
      const d = c.get("day");
      if (!y || !m || !d) continue;
      const day = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
      let instant: string | null = null;
      if (c.isCertain("hour") && c.isCertain("timezoneOffset")) instant = c.date().toISOString();
      const sd: StatedDate = { day, instant, hasTime: c.isCertain("hour") };
      if (plausible(sd, now)) return sd;
    }
  }
  return null;
}

export function findTextDate(root: AnyNode, container: Element | null, now: Date): StatedDate | null {
  const marked = fromDateishElements(root, now);
  if (marked) return marked;
  const scope = container ?? root;
  const text = textOf(scope, 3000);
  const direct = parseStatedDate(text, { epoch: false });
  if (direct && plausible(direct, now)) return direct;
  return fromChrono(text, now);
}
