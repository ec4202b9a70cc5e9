/** Crawl settings from the function's environment, validated, with safe defaults. */
import * as z from "zod/mini";
import { DEFAULT_MIN_HOST_DELAY_MS, MAX_CRAWL_DELAY_MS } from "../fetch/crawl-delay";
import { DEFAULT_USER_AGENT } from "../fetch/user-agent";
import "./zod-messages";

const flag = z.pipe(
  z.optional(z.enum(["true", "false", "1", "0"])),
  z.transform((v) => v === "true" || v === "1"),
);

/** Days an article stays findable in the LSH buckets: news is syndicated within days, and older
 * entries mostly cost storage. */
export const DEFAULT_LSH_RETENTION_DAYS = 90;

/** Days an archived article stays in the hot tables after its collection (issue 40's default). */
const DEFAULT_HOT_DAYS = 30;

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
