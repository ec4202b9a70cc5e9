/**
 * The date the article's header shows: read only from the headline's region (the headline element's
 * ancestors up to HEADER_LEVELS, a few thousand characters), where the byline sits, never from teasers,
 * comments, sidebars or the site's own header elsewhere on the page, and only from short pieces (a
 * byline, a dateline), not from running text, captions or hidden and modification-marked elements. A date
 * labelled as the publication ("Published", "Erschienen am", …) comes first, then the nearest below the
 * headline, then the nearest above it in the headline's own block; an update ("Stand:", "mis à jour le …")
 * says so.
 */
import { UPDATE_MARK } from "./date-labels";
import { type StatedDate, scanDates } from "./date-parse";
import { type AnyNode, type Element, hasAncestorNamed, isElement, textOf } from "./dom";
import type { PageSignals } from "./page-signals";
import { isIntroducedAsPublished } from "./text-dates";

export interface HeaderInput {
  signals: PageSignals;
  root: AnyNode;
  /** The chosen headline: finds its <h2>/<h3> on a page without a usable <h1>. */
  headline?: string | null;
  now: Date;
  dayFirst?: boolean;
}

const HEADER_LEVELS = 3;
/** Elements whose text is never the byline's: scripts, navigation, forms, figures and their captions. */
const SKIP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "nav",
  "select",
  "option",
  "button",
  "figure",
  "figcaption",
]);

/** Not shown, or marked as the modification date (itemprop=dateModified, class="updated"). */
function isHiddenOrModified(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined || /display\s*:\s*none/i.test(a.style ?? "")) return true;
  const marks = `${a.class ?? ""} ${a.itemprop ?? ""}`;
  return /(?:^|[\s_-])hidden(?:$|[\s_-])|modif|updat/i.test(marks);
}

/** Letters and digits only: a headline's dashes, quotes and spacing vary between its copies. */
const norm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** The first <h2>/<h3> whose text is the headline (pages that set their headline below a site-name <h1>). */
function headingOf(root: AnyNode, headline: string): Element | null {
  const want = norm(headline);
  if (want.length < 10) return null;
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!("children" in n)) continue;
    if (isElement(n)) {
      if (SKIP.has(n.name)) continue;
      if ((n.name === "h2" || n.name === "h3") && norm(textOf(n)) === want) return n;
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return null;
}

/** The headline's element: the <h1> that holds the chosen headline, else its <h2>/<h3>, else the first <h1>. */
function headlineElement(input: HeaderInput): Element | null {
  const h1s = input.signals.h1.filter((e) => !hasAncestorNamed(e, "nav") && textOf(e).trim().length >= 10);
  const want = input.headline ? norm(input.headline) : "";
  if (want.length >= 10) {
    const matching = h1s.find((e) => {
      const t = norm(textOf(e));
      return t.includes(want) || want.includes(t);
    });
    return matching ?? headingOf(input.root, input.headline!) ?? h1s[0] ?? null;
  }
  return h1s[0] ?? null;
}

function isFuture(d: StatedDate, now: Date): boolean {
  return Date.parse(`${d.day}T00:00:00Z`) - 14 * 3600_000 > now.getTime();
}

/**
 * An element whose text is at most this long is read as one piece of the header (a byline, a dateline,
 * a "Published:" line); longer ones are running text, whose dates are events, not the article's.
 */
const SHORT = 120;
/** How far from the headline a byline date sits, in characters of text: above it (a kicker, a dateline), below. */
const BEFORE = 600;
const AFTER = 1500;

interface Piece {
  /** Text offset of the piece in the region; the headline's is `h`. */
  at: number;
  text: string;
  /** In the headline's parent: above the headline, only such a piece is the header's (a kicker, a dateline). */
  beside: boolean;
}

/** Characters of the first paragraph after the headline read for a dateline at its start ("Berlin, 3. May –"). */
const LEAD = 40;

/**
 * The short pieces of text in the region (a label, a byline), and the headline's offset (-1 when not met). The
 * walk ends early in the first paragraph after the headline: the body has begun.
 */
function piecesOf(region: Element, headline: Element): { pieces: Piece[]; h: number } {
  const holdsHeadline = new Set<AnyNode>();
  for (let p: AnyNode | null = headline; p; p = p.parent) holdsHeadline.add(p);
  let offset = 0;
  let h = -1;
  let bodyAt = Number.POSITIVE_INFINITY;
  const pieces: Piece[] = [];
  const skip = (el: Element): boolean => SKIP.has(el.name) || isHiddenOrModified(el);
  const visit = (n: AnyNode): void => {
    if (offset > bodyAt || (h >= 0 && offset > h + AFTER)) return;
    if (n.type === "text") {
      if (h >= 0 || within(n, headline.parent)) offset += (n as unknown as { data: string }).data.length;
      return;
    }
    if (!isElement(n) || n.type !== "tag" || skip(n)) return;
    // Above the headline only its own block is read: the rest before it need not be walked.
    if (h < 0 && !holdsHeadline.has(n) && !within(n, headline.parent)) return;
    if (n === headline) {
      h = offset;
      offset += textOf(n).length;
      return;
    }
    const t = holdsHeadline.has(n) ? "" : textOf(n, { after: " ", limit: SHORT, skip });
    if (!holdsHeadline.has(n) && t.length <= SHORT) {
      // Pieces without a digit are kept as the next one's label.
      if (t.trim() !== "") pieces.push({ at: offset, text: t, beside: within(n, headline.parent) });
      offset += t.length;
      return;
    }
    if (h >= 0 && bodyAt === Number.POSITIVE_INFINITY) {
      // A standfirst beside the headline (in its parent) may sit above the byline; other running text is the body.
      const kind = bodyStart(n);
      if (kind === "body" || (kind === "paragraph" && !within(n, headline.parent))) bodyAt = offset + LEAD;
    }
    for (const c of n.children) visit(c);
  };
  visit(region);
  return { pieces, h };
}

function within(n: AnyNode, ancestor: AnyNode | null): boolean {
  for (let p = n.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

/**
 * The article body's microdata, or an element of running text (its own text nodes, not its children's, hold
 * a sentence or more).
 */
function bodyStart(el: Element): "body" | "paragraph" | null {
  if (/articlebody/i.test(el.attribs.itemprop ?? "")) return "body";
  let own = 0;
  for (const c of el.children)
    if (c.type === "text") own += (c as unknown as { data: string }).data.trim().length;
  return own >= 80 ? "paragraph" : null;
}

export interface HeaderDate {
  date: StatedDate;
  /** Stated as an update, not as the publication. */
  update: boolean;
}

/** The date the headline's region states, or null. */
export function headerDate(input: HeaderInput): HeaderDate | null {
  const headline = headlineElement(input);
  const parent = headline?.parent;
  if (!headline || !parent || !isElement(parent)) return null;
  let region = parent;
  for (let level = 1; level < HEADER_LEVELS; level++) {
    const up = region.parent;
    if (!up || !isElement(up) || up.name === "body") break;
    region = up;
  }
  const { pieces, h } = piecesOf(region, headline);
  if (h < 0) return null;
  let labelled: HeaderDate | null = null;
  let below: HeaderDate | null = null;
  let above: HeaderDate | null = null;
  let previous = "";
  for (const p of pieces) {
    if ((p.at < h ? p.beside && h - p.at <= BEFORE : p.at - h <= AFTER) && /\d/.test(p.text)) {
      // The label may be the previous piece ("Erschienen am:" in its own <span>).
      const text = `${previous} ${p.text}`;
      for (const m of scanDates(text, 5, { dayFirst: input.dayFirst })) {
        if (m.index < previous.length + 1 || isFuture(m.date, input.now)) continue;
        if (isIntroducedAsPublished(text, m)) labelled ??= { date: m.date, update: false };
        else if (p.at > h) below ??= { date: m.date, update: UPDATE_MARK.test(text) };
        // The last one above the headline is the nearest.
        else above = { date: m.date, update: UPDATE_MARK.test(text) };
      }
    }
    previous = p.text;
  }
  return labelled ?? below ?? above;
}
