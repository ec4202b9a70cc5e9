/**
 * How the demo web revises a page at the same URL (issue 41's planted revisions): each kind of change
 * as a function of the page's text, and which outlet's page the schedule gives each kind to. The
 * outlets chosen announce a lastmod (a sitemap or Atom's <updated>), so discovery sees the change
 * today; the no-op goes to a JSON-LD page, where the republish changes only markup (dateModified).
 */
import type { Prng } from "./prng";

export type RevisionKind =
  | "headline" // the headline rewritten
  | "paragraph" // a paragraph appended
  | "correction" // a "Correction: ..." line appended
  | "figure" // a number in the text changed
  | "republish" // a new lastmod, the same text
  | "update"; // a developing story's original: an "Update: ..." paragraph appended

export interface PageText {
  readonly headline: string;
  readonly paragraphs: readonly string[];
}

export interface Revised extends PageText {
  /** What changed, for tests to check what a revision tracker found: the new headline, the added
   * line, the figure "from → to", or "" for the no-op. */
  readonly change: string;
}

/** The outlet whose own story (its second of the day) each kind of revision goes to, the day after. */
export const REVISED_OUTLET: Readonly<Record<Exclude<RevisionKind, "update">, string>> = {
  headline: "summit-ledger",
  paragraph: "bayview-chronicle",
  correction: "lakeshore-post",
  figure: "cedar-valley-voice",
  republish: "northgate-herald",
};

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];

/** The first figure in the text (a percentage when there is one) and the text with it raised. */
function changeFigure(paragraphs: readonly string[], by: number): { paragraphs: string[]; change: string } {
  const pattern = paragraphs.some((p) => /\b\d+ percent\b/.test(p)) ? /\b(\d+)( percent)\b/ : /\b(\d+)()\b/;
  let change = "";
  const out = paragraphs.map((p) => {
    if (change) return p;
    const m = pattern.exec(p);
    if (!m) return p;
    const to = `${Number(m[1]) + by}${m[2]}`;
    change = `${m[1]}${m[2]} → ${to}`;
    return `${p.slice(0, m.index)}${to}${p.slice(m.index + m[0].length)}`;
  });
  return { paragraphs: out, change };
}

export function revise(kind: RevisionKind, page: PageText, rng: Prng): Revised {
  const append = (line: string): Revised => ({
    ...page,
    paragraphs: [...page.paragraphs, line],
    change: line,
  });
  switch (kind) {
    case "headline": {
      const headline = rng.pick([
        `${page.headline}: what we know so far`,
        `Explained: ${page.headline}`,
        `${page.headline} as questions mount`,
      ]);
      return { ...page, headline, change: headline };
    }
    case "paragraph":
      return append(
        `Later on ${rng.pick(WEEKDAYS)}, a spokesperson added that a full timetable would be published within ${rng.int(2, 9)} weeks and that public meetings would follow.`,
      );
    case "correction":
      return append(
        `Correction: an earlier version of this article gave the wrong title for one of the people quoted. It has been amended.`,
      );
    case "figure": {
      const { paragraphs, change } = changeFigure(page.paragraphs, rng.int(2, 6));
      return { ...page, paragraphs, change };
    }
    case "republish":
      return { ...page, change: "" };
    case "update":
      return append(
        `Update: officials confirmed on ${rng.pick(WEEKDAYS)} that talks would resume next week, and that ${rng.int(3, 12)} more groups had asked to take part.`,
      );
  }
}
