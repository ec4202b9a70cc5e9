/**
 * A run over days (the daily schedule: yesterday and the day before it; a local run: every collected
 * day before its clock's): each day not current is archived again, the others are left alone.
 */
import { ArchiveError } from "./archive-error";
import { type ArchiveDeps, archiveDay } from "./day-archive";
import { type DayStatus, dayStatus } from "./day-status";
import { manifestRows } from "./manifest";

export interface DayOutcome {
  readonly day: string;
  /** What the day was before the run. */
  readonly was: DayStatus["state"];
  readonly action: "archived" | "current" | "busy";
  readonly articles: number;
  readonly stories: number;
  readonly bytes: number;
  /** Why it was run again (a damaged manifest's reason, a changed count). */
  readonly note?: string;
}

function noteOf(status: DayStatus): string | undefined {
  if (status.state === "damaged") return status.reason;
  if (status.state === "changed")
    return `archived ${status.archived} articles, the table holds ${status.stored}`;
  return undefined;
}

export async function archiveDays(
  deps: ArchiveDeps,
  days: readonly string[],
  opts: { readonly runId: string; readonly now: Date },
): Promise<DayOutcome[]> {
  const out: DayOutcome[] = [];
  for (const day of days) {
    const status = await dayStatus(deps.source, deps.store, day);
    const note = noteOf(status);
    const base = { day, was: status.state, ...(note ? { note } : {}) };
    if (status.state === "current") {
      const m = status.manifest;
      out.push({
        ...base,
        action: "current",
        articles: manifestRows(m, "articles"),
        stories: manifestRows(m, "stories"),
        bytes: 0,
      });
      continue;
    }
    try {
      const m = await archiveDay(deps, day, opts);
      const bytes = Object.values(m.tables)
        .flat()
        .reduce((n, f) => n + f.bytes, 0);
      out.push({
        ...base,
        action: "archived",
        articles: manifestRows(m, "articles"),
        stories: manifestRows(m, "stories"),
        bytes,
      });
    } catch (err) {
      if (!(err instanceof ArchiveError && err.code === "day_busy")) throw err;
      out.push({ ...base, action: "busy", articles: 0, stories: 0, bytes: 0, note: err.message });
    }
  }
  return out;
}
