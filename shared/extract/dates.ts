/**
 * Publication and modification dates. Sources in order of trust: JSON-LD datePublished, article:published_time,
 * other meta tags (Parse.ly, Dublin Core, itemprop, …), microdata, <time datetime>, the URL path, then visible
 * text. published_at is UTC and only set when the page states a timezone and the date is not in the future;
 * otherwise it is null with date_flag, and published_day still carries the day the page states. Where
 * the page states each date is date-candidates.ts; this file chooses among them and checks them.
 */
import type { DateFlag, DateOrderFlag, PublishedAtSource } from "../records";
import {
  collectModified,
  collectPublished,
  type DateCandidate,
  type DateSources,
  fallbackDate,
  urlDate,
} from "./date-candidates";
import { parseStatedDate, type StatedDate } from "./date-parse";
import type { Element } from "./dom";
import { type HeaderDate, headerDate } from "./header-dates";
import { dayInZone, localDay, statedLocalDay } from "./local-day";

export interface DateResult {
  published_at: string | null;
  published_day: string | null;
  published_at_source: PublishedAtSource | null;
  /** The structured-data date the visible byline overrode (its instant, else its day), else null. */
  published_at_structured: string | null;
  date_flag: DateFlag | null;
  /** Set when the page's dates disagreed on the published date's day/month order (records.ts). */
  date_order_flag: DateOrderFlag | null;
  modified_at: string | null;
}

/** The sources that are the page's structured data, kept beside the byline that overrides them. */
const STRUCTURED: ReadonlySet<PublishedAtSource> = new Set(["jsonld", "microdata", "meta"]);

export interface DateInput extends DateSources {
  container: Element | null;
  /** The chosen headline: locates the header on a page whose headline is not an <h1>. */
  headline?: string | null;
  /** The publication date a feed or sitemap stated for the URL, when the caller has one: evidence for the
   * order of a slash date, never a date of its own. */
  publishedHint?: string | null;
  /** The source's IANA time zone, when configured: published_day is published_at's day there. */
  timeZone?: string | null;
  /** The zones of the page's country (page-country.ts), for a UTC-stated instant's day when the source
   * has no zone: the day shown on the page must be one of theirs. Empty when the country is unknown. */
  zones?: () => readonly string[];
}

const FUTURE_SLACK_MS = 5 * 60_000;

function isFuture(d: StatedDate, now: Date): boolean {
  if (d.instant) return Date.parse(d.instant) > now.getTime() + FUTURE_SLACK_MS;
  // A day alone is in the future only when it has not begun anywhere on Earth (UTC+14).
  return Date.parse(`${d.day}T00:00:00Z`) - 14 * 3600_000 > now.getTime();
}

export function extractDates(input: DateInput): DateResult {
  const candidates = collectPublished(input);
  const modified = collectModified(input);
  const modified_at = modified?.instant && !isFuture(modified, input.now) ? modified.instant : null;
  let primary: DateCandidate | undefined =
    candidates.find((c) => !isFuture(c.date, input.now)) ?? candidates[0];
  primary ??= fallbackDate(input);
  if (!primary) {
    return {
      published_at: null,
      published_day: null,
      published_at_source: null,
      published_at_structured: null,
      date_flag: "missing",
      date_order_flag: null,
      modified_at,
    };
  }
  const evidence = (): StatedDate[] => {
    const hint = input.publishedHint ? parseStatedDate(input.publishedHint) : null;
    return [urlDate(input.url), hint, ...candidates.map((c) => c.date)].filter(
      (d): d is StatedDate => d !== null,
    );
  };
  const header = headerOnce(input, evidence);
  if (primary.date.other) {
    const checked = crossChecked(primary.date, [...evidence(), ...headerDates(header())]);
    if (checked !== primary.date) primary = { ...primary, date: checked };
  }
  const before = primary;
  primary = bylineOver(primary, header());
  const overridden = primary !== before && STRUCTURED.has(before.source) ? before.date : null;
  const published_at_structured = overridden && (overridden.instant ?? overridden.day);
  let { date, source } = primary;
  // The day of a UTC-stated instant: another statement of the same instant in local time, else the day the
  // page shows when a zone of the page's country (any zone, the country unknown) puts the instant on it; an
  // "updated" line's day is not the publication's.
  date = localDay(
    date,
    candidates.map((c) => c.date),
  );
  date = statedLocalDay(
    date,
    () => {
      const shown = header();
      return urlDate(input.url) ?? (shown && !shown.update ? shown.date : null);
    },
    input.zones,
  );
  // The shown date may settle the order while another statement of the same day is chosen (the URL's).
  const shown = header()?.date;
  const date_order_flag = date.order ?? (shown?.order && shown.day === date.day ? shown.order : null);
  if (!date.instant) {
    // The same day stated elsewhere with a timezone gives the instant without guessing.
    const withTz = candidates.find((c) => c.date.instant && c.date.day === date.day);
    if (withTz) ({ date, source } = withTz);
  }
  // A future date, or one without a timezone, keeps its day and says why it has no instant.
  const date_flag: DateFlag | null = isFuture(date, input.now)
    ? "future"
    : date.instant
      ? null
      : "no_timezone";
  const published_at = date_flag ? null : date.instant;
  return {
    published_at,
    published_day: publishedDay(published_at, date, input.timeZone ?? null),
    published_at_source: source,
    published_at_structured,
    date_flag,
    date_order_flag,
    modified_at,
  };
}

/**
 * With the source's zone the day is published_at's there; else the day the page states (local-day.ts). A
 * time written as midnight exactly ("2020-01-10T00:00:00+00:00") is a date a CMS wrote as an instant: its
 * day is the one written, which a zone west of the offset would move to the day before.
 */
function publishedDay(publishedAt: string | null, date: StatedDate, timeZone: string | null): string {
  if (!publishedAt || !timeZone || date.clock === 0) return date.day;
  return dayInZone(publishedAt, timeZone) ?? date.day;
}

/** The header's date, found at most once (it walks the headline's region), its order cross-checked. */
function headerOnce(input: DateInput, evidence: () => StatedDate[]): () => HeaderDate | null {
  let found: HeaderDate | null | undefined;
  return () => {
    if (found === undefined) {
      const h = headerDate(input);
      found = h && { ...h, date: crossChecked(h.date, evidence()) };
    }
    return found;
  };
}

function headerDates(h: HeaderDate | null): StatedDate[] {
  return h ? [h.date] : [];
}

/**
 * A slash date read in the page's locale order ("03/04/2026") that the page's other dates contradict: the
 * other reading, when more of them (the URL's, the structured data's, the byline's, a feed's) fall within a
 * day of it than of the locale's reading. Dates that are themselves ambiguous are no evidence. Either way a
 * reading some evidence contradicts carries `order` (swapped, contested) for the record's date_order_flag.
 */
function crossChecked(date: StatedDate, evidence: readonly StatedDate[]): StatedDate {
  const other = date.other;
  if (!other) return date;
  const near = (a: string, b: string): boolean => Math.abs(Date.parse(a) - Date.parse(b)) <= DAY_MS;
  let forRead = 0;
  let forOther = 0;
  for (const e of evidence) {
    if (e === date || e.other) continue;
    if (near(e.day, date.day)) forRead++;
    if (near(e.day, other.day)) forOther++;
  }
  if (forOther === 0) return date;
  return forOther > forRead ? { ...other, order: "swapped" } : { ...date, order: "contested" };
}

const DAY_MS = 86_400_000;

/**
 * The visible byline over a date that disagrees with it: over a weak field (Dublin Core "date", an unmarked
 * <time>) on any other day; over a date read from the running text, or a publication field more than a day
 * away (a neighbouring day is a timezone's difference, settled by statedLocalDay), unless the byline
 * states an update.
 */
function bylineOver(primary: DateCandidate, shown: HeaderDate | null): DateCandidate {
  if (!shown || shown.date.day === primary.date.day) return primary;
  const apart = Math.abs(Date.parse(shown.date.day) - Date.parse(primary.date.day));
  const disagrees = primary.source === "text" || apart > DAY_MS;
  if (primary.weak || (disagrees && !shown.update)) return { date: shown.date, source: "text" };
  return primary;
}
