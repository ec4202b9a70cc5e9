/**
 * The functions' clock. Deployed it is the wall clock. A local run, a replay or a test may set
 * `STORYTRAIL_NOW` (an ISO 8601 instant with its zone): the clock then reads that instant when the
 * process started and runs at the wall clock's pace from there, so every handler in one process reads
 * the same time, and a run's news windows (discovery's `newsMaxAgeDays`, the future-date flag, the
 * quality day) do not age with the calendar.
 */
export type Clock = () => Date;

/** `startAt`: the instant the process's clock reads at its start; `sinceStartMs`: ms since that start. */
export function clockFrom(
  startAt: string | undefined,
  sinceStartMs: () => number = () => performance.now(),
): Clock {
  if (startAt === undefined) return () => new Date();
  const origin = Date.parse(startAt);
  return () => new Date(origin + sinceStartMs());
}
