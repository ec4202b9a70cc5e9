/**
 * Looking again at an article whose source gives no lastmod (issue 41): fetch writes on the URL's
 * Frontier item when it is next due (`recheck_at`), counted from its first fetch; discovery lists such a
 * URL again while it is young (a feed's or news sitemap's publication date is no lastmod) and, when its
 * lastmod has not moved, re-sends it once that time has passed (FrontierTable `claim`), through the
 * host's slots like any page. A re-check that finds the text changed keeps a revision; one that finds
 * it unchanged adds nothing. The last step, or a failed re-check, ends it.
 */
import type { FetchMessage } from "../records";
import type { FrontierEntry, RecheckMark } from "./ports";

const HOUR_MS = 3_600_000;

const sameInstant = (a: string, b: string | null | undefined) => !!b && Date.parse(a) === Date.parse(b);

/**
 * The mark after a fetch at `now`: the first step of `hours` still ahead of `now` (steps a late
 * discovery run passed are skipped, so a source discovered daily costs one look a day, not a burst).
 */
export function nextRecheck(
  msg: Pick<FetchMessage, "lastmod" | "hint_published_at">,
  previous: Pick<FrontierEntry, "first_fetched_at"> | null,
  hours: readonly number[],
  now: Date,
): RecheckMark {
  const first_fetched_at = previous?.first_fetched_at ?? now.toISOString();
  // A source that gives a lastmod says itself when the page changed: discovery re-sends it then. A
  // publication date standing in for it (a feed's pubDate, a news sitemap's date) says nothing of that.
  if (msg.lastmod && !sameInstant(msg.lastmod, msg.hint_published_at))
    return { first_fetched_at, recheck_at: null };
  const start = Date.parse(first_fetched_at);
  const due = hours.map((h) => start + h * HOUR_MS).find((t) => t > now.getTime());
  return { first_fetched_at, recheck_at: due === undefined ? null : new Date(due).toISOString() };
}
