/** Crawl settings from the function's environment, validated, with safe defaults. */
import * as z from "zod/mini";
import { DEFAULT_MIN_HOST_DELAY_MS, MAX_CRAWL_DELAY_MS } from "../fetch/crawl-delay";
import { DEFAULT_USER_AGENT } from "../fetch/user-agent";
import "./zod-messages";

const flag = z.pipe(
  z.optional(z.enum(["true", "false", "1", "0"])),
  z.transform((v) => v === "true" || v === "1"),
);

/**
 * Days an article stays findable in the LSH buckets (and its Fingerprints item lives). Syndicated copies
 * come within hours: on the dedup evaluation corpus (1,248 copies of 252 stories) every copy came within
 * 0.63 days of its story's first document, and the demo web's pick-ups within hours, so 7, 14 or 30 days
 * lose no copy there (90 did not either). 30 = the hot window: a copy matched later than that would have
 * to join a story whose Clusters items have expired into the archive, so a longer window buys nothing and
 * costs the fingerprints' and buckets' storage (a third of 90 days'). docs/dataset.md, "Retention".
 */
export const DEFAULT_LSH_RETENTION_DAYS = 30;

/**
 * Days a Frontier item lives after its last write, or after discovery last saw its URL listed (a sighting
 * past half the window renews it: frontier-table.ts). Discovery offers a URL again only while its listing
 * has no date, or its date is at or after the source's last successful run (discover-source.ts; a news
 * sitemap entry older than the 3-day news window never): a dated URL reaches the Frontier once more at
 * most, at the next run, and a new lastmod is a re-fetch as it should be. A dateless URL is offered at
 * every run while it is listed, and only its item stops a second claim: sightings keep the item while the
 * listing lasts, so the window only needs to outlast the longest gap between two sightings (a source's
 * cadence, a discovery outage) and a fetch message's life: 4 days in the fetch queue plus 14 in its DLQ
 * awaiting a redrive (infra/topology.ts; a test holds the window above them). 30 days also keep the
 * table at a month of URLs.
 */
export const DEFAULT_FRONTIER_RETENTION_DAYS = 30;

/** Hours after an article's first fetch at which a URL its source lists without a lastmod is fetched
 * again, for revisions no lastmod announces: a developing story is rewritten most in its first hours, so
 * the looks thin out over its first day. Each is due at the source's first discovery run after it (a
 * source discovered daily looks once a day). Cost per million articles: `npm run bench -- --only cost`. */
export const DEFAULT_RECHECK_HOURS: readonly number[] = [1, 4, 12, 24];
/** Looking again stops after the article's first two days (issue 41: "its first day or two"). */
const MAX_RECHECK_HOURS = 48;

const ascending = (xs: readonly number[]) => xs.every((x, i) => i === 0 || x > (xs[i - 1] as number));

/** Days an archived article stays in the hot tables after its collection (issue 40's default). */
export const DEFAULT_HOT_DAYS = 30;

export const crawlSettingsSchema = z.object({
  STORYTRAIL_USER_AGENT: z._default(z.string(), DEFAULT_USER_AGENT),
  /** Only tests and local runs against loopback sites set this. */
  STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: flag,
  STORYTRAIL_RAW_SAMPLE_RATE: z._default(z.coerce.number().check(z.gte(0), z.lte(1)), 0.1),
  /** At most the Crawl-delay cap: a page's 60 s share of the fetch timeout holds 30 s of waiting, so a
   * longer minimum would time out every page (as a source's min_delay_ms is capped in sources.ts). */
  STORYTRAIL_MIN_HOST_DELAY_MS: z._default(
    z.coerce.number().check(z.int(), z.gte(0), z.lte(MAX_CRAWL_DELAY_MS)),
    DEFAULT_MIN_HOST_DELAY_MS,
  ),
  /** Days an article stays findable in the LSH buckets (dedup λ). */
  STORYTRAIL_LSH_RETENTION_DAYS: z._default(
    z.coerce.number().check(z.int(), z.gte(1)),
    DEFAULT_LSH_RETENTION_DAYS,
  ),
  /** Days a Frontier item lives after its last write or sighting (discover and fetch λ). */
  STORYTRAIL_FRONTIER_RETENTION_DAYS: z._default(
    z.coerce.number().check(z.int(), z.gte(1)),
    DEFAULT_FRONTIER_RETENTION_DAYS,
  ),
  /** The re-check schedule (DEFAULT_RECHECK_HOURS): hours, comma-separated, ascending; "" looks never. */
  STORYTRAIL_RECHECK_HOURS: z.pipe(
    z.pipe(
      z._default(z.string(), DEFAULT_RECHECK_HOURS.join(",")),
      z.transform((s) =>
        s
          .split(",")
          .map((h) => h.trim())
          .filter(Boolean)
          .map(Number),
      ),
    ),
    z
      .array(z.number().check(z.gt(0), z.lte(MAX_RECHECK_HOURS)))
      .check(z.refine(ascending, "re-check hours must be in ascending order, e.g. 1,4,12,24")),
  ),
  /** Days an article (and a story's member and outlet items after its latest member) stays in the hot
   * tables once its day is archived (archive λ, shared/archive/). */
  STORYTRAIL_HOT_DAYS: z._default(z.coerce.number().check(z.int(), z.gte(1)), DEFAULT_HOT_DAYS),
  /** The clock's start for local runs, replays and tests (clock.ts); the wall clock when unset. */
  STORYTRAIL_NOW: z.optional(z.iso.datetime({ offset: true })),
  STORYTRAIL_CANONICAL_PARTNERS: z.pipe(
    z._default(z.string(), ""),
    z.transform((s) =>
      s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ),
});

export type CrawlSettings = z.infer<typeof crawlSettingsSchema>;

export function crawlSettings(env: Readonly<Record<string, string | undefined>>): CrawlSettings {
  return crawlSettingsSchema.parse(env);
}
