/**
 * A run over days (the daily schedule: yesterday and the day before it; a local run: every collected
 * day before its clock's): each day not current is archived again, the others are left alone.
 */
import { ArchiveError } from "./archive-error";
import { type ArchiveDeps, archiveDay } from "./day-archive";
import { type DayStatus, dayStatus } from "./day-status";
import { type Manifest, manifestRows } from "./manifest";

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

/** A day the run archives, and why. */
export interface DueDay {
  readonly day: string;
  readonly was: DayStatus["state"];
  readonly note?: string;
}

function noteOf(status: DayStatus): string | undefined {
  if (status.state === "damaged") return status.reason;
  if (status.state === "changed")
    return `archived ${status.archived} articles, the table holds ${status.stored}`;
  return undefined;
}

/** An archived day's outcome, from its manifest. */
export const archivedOutcome = (due: DueDay, m: Manifest): DayOutcome => ({
  ...due,
  action: "archived",
  articles: manifestRows(m, "articles"),
  stories: manifestRows(m, "stories"),
  bytes: Object.values(m.tables)
    .flat()
    .reduce((n, f) => n + f.bytes, 0),
});

/** Which of `days` are due (not current), and the outcomes of those that are current. */
export async function dueDays(
  deps: Pick<ArchiveDeps, "source" | "store">,
  days: readonly string[],
): Promise<{ readonly days: DueDay[]; readonly current: DayOutcome[] }> {
  const due: DueDay[] = [];
  const current: DayOutcome[] = [];
  for (const day of days) {
    const status = await dayStatus(deps.source, deps.store, day);
    const note = noteOf(status);
    if (status.state !== "current") {
      due.push({ day, was: status.state, ...(note ? { note } : {}) });
      continue;
    }
    const m = status.manifest;
    current.push({
      day,
      was: status.state,
      action: "current",
      articles: manifestRows(m, "articles"),
      stories: manifestRows(m, "stories"),
      bytes: 0,
    });
  }
  return { days: due, current };
}

/** Archives each due day of `days` in this process, in order (the days' own order is kept). */
export async function archiveDays(
  deps: ArchiveDeps,
  days: readonly string[],
  opts: { readonly runId: string; readonly now: Date },
): Promise<DayOutcome[]> {
  const out: DayOutcome[] = [];
  for (const day of days) {
    const checked = await dueDays(deps, [day]);
    const [due] = checked.days;
    if (!due) {
      out.push(...checked.current);
      continue;
    }
    try {
      out.push(archivedOutcome(due, await archiveDay(deps, day, opts)));
    } catch (err) {
      if (!(err instanceof ArchiveError && err.code === "day_busy")) throw err;
      out.push({ ...due, action: "busy", articles: 0, stories: 0, bytes: 0, note: err.message });
    }
  }
  return out;
}
