/**
 * A story as the archive of a day reads it: its row (the export's), the Clusters items the hot window
 * marks, and the latest collection among its members (a story still growing stays hot from there).
 */
import { memberOf, type StoryRow, storyRow } from "../export/dataset";

export interface ArchivedStory {
  /** Its row, written once; the day keeps only what its articles' rows and the hot window need. */
  readonly row: StoryRow;
  /** The `item` keys of its member and outlet items. */
  readonly items: ReadonlySet<string>;
  /** Epoch seconds of its latest member's collected_at. */
  readonly latestCollected: number;
}

const kindOf = (item: Record<string, unknown>): string =>
  String(item.record_type ?? String(item.item).split("#")[0]);

/** What the rest of a day needs of a story once its row is written: ~6 short strings a story. */
export interface StoryMark {
  readonly story_id: string;
  readonly first_published_at: string | null;
  readonly items: ReadonlySet<string>;
  readonly latestCollected: number;
}

export const storyMark = (s: ArchivedStory): StoryMark => ({
  story_id: s.row.story_id,
  first_published_at: s.row.first_published_at,
  items: s.items,
  latestCollected: s.latestCollected,
});

/** The live story the items make, or null (no summary, retired by a merge, or no member yet). */
export function archivedStory(items: readonly Record<string, unknown>[]): ArchivedStory | null {
  const summary = items.find((i) => kindOf(i) === "summary");
  if (!summary || summary.merged_into) return null;
  const memberItems = items.filter((i) => kindOf(i) === "member");
  if (memberItems.length === 0) return null;
  const members = memberItems.map(memberOf);
  // Members carry their outlet's source_id (record version 2 on), as the Articles items do.
  const sourceOf = new Map<string, string>();
  for (const m of memberItems)
    if (typeof m.source_id === "string") sourceOf.set(String(m.article_id), m.source_id);
  const latest = Math.max(...members.map((m) => (m.collected_at ? Date.parse(m.collected_at) : 0)));
  return {
    row: storyRow(summary, members, sourceOf),
    items: new Set(items.filter((i) => kindOf(i) !== "summary").map((i) => String(i.item))),
    latestCollected: Math.floor(latest / 1000),
  };
}
