/**
 * What looking again costs (issue 41): an article whose source gives no lastmod is fetched again on the
 * re-check schedule (STORYTRAIL_RECHECK_HOURS), at the source's first discovery run after each step
 * (shared/crawl/recheck-schedule.ts). A re-check is priced as one more pass of the article through the
 * metered run's per-article lines (its fetch and dedup: compute, queues, Frontier, Articles, Hosts and
 * dedup items, raw samples), without its storage (the item is overwritten, not added) and without
 * discovery (which lists the URL anyway), plus what only a re-check does: the claim's second write and
 * the stored article's read for the comparison. An upper bound on dedup: a re-check's message updates
 * one member item where a first pass clusters the article.
 */

import { DEFAULT_RECHECK_HOURS } from "../shared/config/crawl-settings";
import { RECHECK_LISTING_HOURS } from "../shared/discover/discover-source";
import {
  type CostLine,
  costBreakdown,
  costLine,
  type Observed,
  readUnits,
  type Settings,
  totalUsd,
} from "./cost-model";
import { PRICES, type Prices } from "./prices";
import { formatTable } from "./table";

export interface RecheckAssumptions {
  /** STORYTRAIL_RECHECK_HOURS: hours after the first fetch. */
  readonly hours: readonly number[];
  /** Share of articles whose source lists them without a lastmod (an input: it depends on the sources). */
  readonly noLastmodShare: number;
  /** How often the source is discovered (its `schedule`; daily by default). */
  readonly discoveryIntervalHours: number;
  /** From a discovery run to the page's fetch (its slot on the host's schedule). */
  readonly fetchDelayHours: number;
}

/** Re-checks of one article without lastmod: discovery runs at multiples of the interval, each fetch
 * a delay after its run, and a fetch skips the steps already past (nextRecheck). */
export function recheckLooks(a: Omit<RecheckAssumptions, "noLastmodShare">): number {
  const first = a.fetchDelayHours;
  let fetchedAt = first;
  let looks = 0;
  for (;;) {
    const step = a.hours.find((h) => first + h > fetchedAt);
    if (step === undefined) return looks;
    const run = Math.ceil((first + step) / a.discoveryIntervalHours) * a.discoveryIntervalHours;
    looks++;
    fetchedAt = run + a.fetchDelayHours;
  }
}

/** Lines of an article's pass that a re-check repeats: not storage, not discovery's compute. */
function repeated(line: CostLine): boolean {
  return !line.item.includes("storage") && !line.item.startsWith("discover ");
}

/** Dollars of one re-check, from the metered run's lines at the settings. */
export function recheckUsd(obs: Observed, s: Settings, prices: Prices = PRICES): number {
  const M = 1e6;
  const pass = costBreakdown(obs, s, prices)
    .filter(repeated)
    .reduce((sum, l) => sum + l.usd, 0);
  const articleBytes = obs.tables.articles ? obs.tables.articles.storedBytes : 0;
  const own = readUnits(articleBytes) * prices.dynamoPerRru + prices.dynamoPerWru;
  return pass / M + own;
}

/** Discovery runs that list an article dated by its publication alone again, though unchanged: those
 * meeting a step's listing window (shared/discover/discover-source.ts), each a claim refused for 1 WRU. */
export function recheckListings(a: Pick<RecheckAssumptions, "hours" | "discoveryIntervalHours">): number {
  const d = a.discoveryIntervalHours;
  const last = Math.max(0, ...a.hours) + RECHECK_LISTING_HOURS;
  let listings = 0;
  for (let run = d; run - d <= last; run += d)
    if (a.hours.some((h) => h <= run && h + RECHECK_LISTING_HOURS >= run - d)) listings++;
  return listings;
}

/** The re-checks' lines, per million articles: extra fetches × one re-check's dollars, and the listings'
 * refused claims (counted for every article without lastmod: one with no date at all is listed on every
 * run anyway, so this is an upper bound). */
export function recheckCostLines(
  obs: Observed,
  s: Settings,
  a: RecheckAssumptions,
  prices: Prices = PRICES,
): CostLine[] {
  const looks = recheckLooks(a);
  const listings = recheckListings(a);
  const share = `${Math.round(a.noLastmodShare * 100)} % of articles without lastmod, discovered every ${a.discoveryIntervalHours} h`;
  return [
    costLine(
      "all",
      `re-checks (${a.hours.join(",")} h; ${share}: ${looks} look${looks === 1 ? "" : "s"} each)`,
      1e6 * a.noLastmodShare * looks,
      "fetches",
      recheckUsd(obs, s, prices),
    ),
    costLine(
      "DynamoDB",
      `frontier: listings for re-checks (${share}: ${listings} refused claims each)`,
      1e6 * a.noLastmodShare * listings,
      "WRU",
      prices.dynamoPerWru,
    ),
  ];
}

/** Shares of articles without lastmod and discovery cadences the bench states the lines at. */
const SHARES = [0.1, 0.3, 1];
const CADENCES_HOURS = [0.25, 1, 24];
/** A page is fetched a while after its discovery run (its host's slot): 15 minutes assumed. */
const FETCH_DELAY_HOURS = 0.25;

/** `npm run bench -- --only cost`: the re-checks' dollars per million articles at the default schedule. */
export function recheckReport(obs: Observed, s: Settings): { text: string; results: object } {
  const schedule = (discoveryIntervalHours: number) => ({
    hours: DEFAULT_RECHECK_HOURS,
    discoveryIntervalHours,
    fetchDelayHours: FETCH_DELAY_HOURS,
  });
  const rows = CADENCES_HOURS.map((h) => ({
    h,
    looks: recheckLooks(schedule(h)),
    listings: recheckListings(schedule(h)),
    usd: SHARES.map((noLastmodShare) =>
      totalUsd(recheckCostLines(obs, s, { ...schedule(h), noLastmodShare })),
    ),
  }));
  const perMillion = recheckUsd(obs, s) * 1e6;
  const text = `Re-checks of articles without lastmod (STORYTRAIL_RECHECK_HOURS ${DEFAULT_RECHECK_HOURS.join(",")}; each priced as the article's fetch and dedup lines above without storage or discovery, plus the claim's write and the article's read: $${perMillion.toFixed(2)} per million re-checks; an article dated by its publication alone is also listed again around each step, a refused claim each; a page fetched ${FETCH_DELAY_HOURS * 60} min after its discovery run)\n${formatTable(
    [
      "source discovered every",
      "looks per article",
      "listings per article",
      ...SHARES.map((x) => `USD per M articles, ${x * 100} % without lastmod`),
    ],
    rows.map((r) => [`${r.h} h`, r.looks, r.listings, ...r.usd.map((u) => `$${u.toFixed(2)}`)]),
  )}`;
  return { text, results: { perMillionRechecksUsd: perMillion, rows } };
}
