/**
 * The record formats storytrail stores and emits, as zod schemas and the types inferred from them.
 * Consumers of the Clusters stream import them as `@storytrail/records` (packages/records builds this
 * file to JavaScript) and parse what they read (`schema.parse` / `safeParse`). The schemas are zod/mini
 * ones, which keeps the Lambda bundles small: compose them with zod's functions
 * (`z.extend(articleSchema, …)`), not the full API's methods. Importing this file has no side effect
 * (zod's English messages are installed by the modules that want them: config/zod-messages.ts).
 * Bump RECORD_VERSION on any incompatible change and document it in the README.
 */
import * as z from "zod/mini";

/** 8: the hot tables expire (DynamoDB TTL, attribute `expires_at` in epoch seconds, set on Clusters member
 * and outlet items and Articles items once the archive holds them), and the Clusters stream carries their
 * expiries: a REMOVE whose userIdentity is the DynamoDB service (shared/consumer/ttl-deletion.ts), which
 * decodes as `story_expired`, `member_expired` or `outlet_expired`, never as a removal or a merge. And an
 * article keeps its revisions (a fetch of its URL whose headline or body changed): the Articles item carries
 * `revision_count` and `revisions` (the last REVISIONS_KEPT summaries, shared/revisions/), the Clusters
 * member item `latest_revision` (an `article_revised` event on the stream), and the dedup message the
 * revision. Older items decode with 0, [] and null. 7: dedup no longer writes a story item per article in the Fingerprints table (key story#<article_id>);
 * an article's story is its fingerprint item's first_cluster_id followed through the summaries'
 * merged_into (shared/aws/fingerprint-item.ts articleStories), or the member item on the Clusters
 * stream. Every other record is as in 6. 6: the article carries `date_order_flag`: "swapped" when the page's other dates settled a numeric
 * date's day/month order against the page's locale, "contested" when some of them disagreed but the
 * locale's order kept more support; null otherwise. 5: the article carries `headline_declared` (the headline the page declares: JSON-LD, og:title,
 * twitter:title), `kicker` (the label over the shown headline) and `credit` (organisations credited for the
 * article: agencies, the publisher), each null or empty when the page has none. 4: the article carries `published_at_structured`, the structured-data date the visible byline
 * overrode (null otherwise). 3: the Articles item stores `body` gzip-compressed, a binary attribute
 * with `body_encoding: "gzip"` (shared/consumer/article-item.ts decodes it). 2: millisecond instants,
 * source_id on members and outlets, outlets keyed by source_id, `revision` for `version`, optional
 * fields always present, retired clusters lose their outlet items. */
export const RECORD_VERSION = 8;

/** The versions the schemas and decoders read: 2 and 3 differ only in how the Articles item stores
 * the body, which `decodeArticleItem` reads both ways, 4 only adds `published_at_structured`, and 5
 * only adds `headline_declared`, `kicker` and `credit`, which it reads as null (credit: empty) on older
 * items, 6 only adds `date_order_flag`, null on older items, 7 changes only the Fingerprints table, and 8
 * only adds expiries to the stream (items of 7 expire alike) and the revision fields (0, [] and null on
 * older items); every writer writes RECORD_VERSION. */
export const READ_RECORD_VERSIONS = [2, 3, 4, 5, 6, 7, RECORD_VERSION] as const;
const recordVersion = z.literal(READ_RECORD_VERSIONS);

const isoDayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** A UTC instant with exactly millisecond precision, `2026-11-30T14:05:00.000Z`: compares as text. */
export const instant = z.iso.datetime({ precision: 3 });

/** The record form of an instant: `toISOString()` of whatever ISO string or time it is given. */
export function toInstant(value: string | number | Date): string {
  const ms = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`not a time: ${String(value)}`);
  return new Date(ms).toISOString();
}

/** The extractor's instants as an article record stores them (it writes whole seconds as `…:00Z`). */
export function recordInstants(e: {
  published_at: string | null;
  published_at_structured: string | null;
  modified_at: string | null;
}): {
  published_at: string | null;
  published_at_structured: string | null;
  modified_at: string | null;
} {
  const structured = e.published_at_structured;
  return {
    published_at: e.published_at && toInstant(e.published_at),
    // A day stays a day: only an instant has a record form.
    published_at_structured:
      structured && (isoDayPattern.test(structured) ? structured : toInstant(structured)),
    modified_at: e.modified_at && toInstant(e.modified_at),
  };
}

/** What the extractor reads off a page: any ISO instant with an offset (records use `instant`). */
const isoInstant = z.iso.datetime({ offset: true });
const isoDay = z.string().check(z.regex(isoDayPattern));

export const publishedAtSource = z.enum(["jsonld", "microdata", "meta", "time", "url", "text"]);
export type PublishedAtSource = z.infer<typeof publishedAtSource>;

/** Why published_at is null (or, for `missing`, why there is no date at all). Never a guess. */
export const dateFlag = z.enum(["missing", "no_timezone", "future", "unparseable"]);
export type DateFlag = z.infer<typeof dateFlag>;

/**
 * How a numeric date's day/month order was settled when the page's other dates (its URL's, its structured
 * data's, its byline's, a feed's or sitemap's) disagree with the locale's reading by more than a day:
 * `swapped`, more of them support the other order, which the published date takes; `contested`, some
 * support the other order but no more than support the locale's, which it keeps. Null when the date is
 * not ambiguous or nothing disagrees. A flagged day is worth a look, not a discard.
 */
export const dateOrderFlag = z.enum(["swapped", "contested"]);
export type DateOrderFlag = z.infer<typeof dateOrderFlag>;

export const languageSource = z.enum([
  "html_lang",
  "jsonld",
  "og_locale",
  "meta",
  "http_header",
  "detected",
  "hint",
]);
export type LanguageSource = z.infer<typeof languageSource>;

/** Fields the extractor cut to their cap (shared/extract/field-caps.ts) so the article fits one item. */
export const truncatedField = z.enum([
  "headline",
  "body",
  "authors",
  "publication",
  "section",
  "headline_declared",
  "kicker",
  "credit",
]);
export type TruncatedField = z.infer<typeof truncatedField>;

/** What the extractor reads off one page. Pure function of (html, url, headers, now). */
export const extractionSchema = z.object({
  /** The page's own rel=canonical / og:url / JSON-LD url when it stays on the same site, else null. */
  canonical_from_page: z.nullable(z.string()),
  /** The headline the page shows (its <h1> or equivalent), without kicker or site name. */
  headline: z.nullable(z.string()),
  /** Since v5: the headline the page declares (JSON-LD `headline`, else og:title, else twitter:title),
   * without a site-name decoration, its characters as declared; null when it declares none. */
  headline_declared: z.nullable(z.string()),
  /** Since v5: the label the page sets over or before its headline (topline, overline), else null. */
  kicker: z.nullable(z.string()),
  body: z.string(),
  publication: z.nullable(z.string()),
  section: z.nullable(z.string()),
  /** People: an organisation the byline names goes to `credit` (since v5). */
  authors: z.array(z.string()),
  /** Since v5: organisations credited for the article (a news agency such as AP, Reuters, dpa, AFP; the
   * publication when it signs the article itself), names as written; empty when none. */
  credit: z.array(z.string()),
  published_at: z.nullable(isoInstant),
  published_day: z.nullable(isoDay),
  published_at_source: z.nullable(publishedAtSource),
  /** The publication date the page's structured data (JSON-LD, microdata, meta tags) states when the
   * visible byline overrode it (published_at and published_day are then the byline's): its
   * instant when it states a timezone, else its day (`YYYY-MM-DD`). Null when no byline overrode one. */
  published_at_structured: z.nullable(z.union([isoInstant, isoDay])),
  date_flag: z.nullable(dateFlag),
  /** Since v6: set when the page's dates disagreed on a numeric date's day/month order (dateOrderFlag). */
  date_order_flag: z.nullable(dateOrderFlag),
  modified_at: z.nullable(isoInstant),
  language: z.nullable(z.string()),
  language_source: z.nullable(languageSource),
  /** false when the page declares itself paywalled (schema.org isAccessibleForFree). Never circumvented. */
  is_accessible_for_free: z.nullable(z.boolean()),
  word_count: z.int().check(z.nonnegative()),
  /** Present when a field was cut to its cap: which ones (the body keeps its first 200,000 UTF-8 bytes). */
  truncated: z.optional(z.array(truncatedField)),
});
export type Extraction = z.infer<typeof extractionSchema>;

/** Since v8: the notice a revision brought, from a new "Correction:" / "Update:" / "Updated:" line of
 * the body or the publisher's correction markup (shared/revisions/revision-notice.ts). */
export const revisionNotice = z.enum(["correction", "update"]);
export type RevisionNotice = z.infer<typeof revisionNotice>;

/** Since v8: one revision of an article, what its fetch found changed against the version before. */
export const articleRevisionSchema = z.object({
  /** 1 for the first change after the article was first stored, then +1 per change. */
  number: z.int().check(z.positive()),
  /** When the revised version was fetched. */
  collected_at: instant,
  /** The revised page's own modified date (JSON-LD dateModified and the like), else null. */
  modified_at: z.nullable(instant),
  /** The revised and the earlier headline, each cut to 300 characters (the item's size budget). */
  headline: z.nullable(z.string()),
  previous_headline: z.nullable(z.string()),
  headline_changed: z.boolean(),
  body_changed: z.boolean(),
  /** The revised body's hash (SHA-256 of its whitespace-normalised NFC text, 32 hex). */
  body_hash: z.string(),
  /** Words added and removed (shared/revisions/word-diff.ts), and the first of each, ≤ 200 characters. */
  words_added: z.int().check(z.nonnegative()),
  words_removed: z.int().check(z.nonnegative()),
  added_sample: z.string(),
  removed_sample: z.string(),
  notice: z.nullable(revisionNotice),
  /** The notice's line, ≤ 200 characters, when the body has one. */
  notice_text: z.nullable(z.string()),
  /** Where the earlier body is: its gzip text in the raw samples' bucket. */
  previous_body_key: z.string(),
});
export type ArticleRevision = z.infer<typeof articleRevisionSchema>;

/** The article with its body as text: what `decodeArticleItem` returns for an Articles item (which
 * stores the body compressed, shared/consumer/article-item.ts). */
export const articleSchema = z.extend(extractionSchema, {
  record_version: recordVersion,
  /** Always present on the stored article: null when nothing was cut (v2: no optional fields). */
  truncated: z.nullable(z.array(truncatedField)),
  published_at: z.nullable(instant),
  /** Since v4 (older items decode with null): an instant in record form, or a day. */
  published_at_structured: z.nullable(z.union([instant, isoDay])),
  modified_at: z.nullable(instant),
  article_id: z.string(),
  url: z.url(),
  url_variants: z.array(z.string()),
  source_id: z.string(),
  collected_at: instant,
  http_status: z.int(),
  raw_key: z.nullable(z.string()),
  extractor_version: z.string(),
  /** Since v8: the revisions found so far, and the last of them (at most REVISIONS_KEPT, oldest first;
   * every earlier body is in S3). */
  revision_count: z.int().check(z.nonnegative()),
  revisions: z.array(articleRevisionSchema),
  // No cluster_id: dedup never rewrites the article (a multi-unit write); its fingerprint item names the
  // cluster its claim chose, which merges lead on from (merged_into), and its member item is on the stream.
});
export type Article = z.infer<typeof articleSchema>;

/** Reasons a URL did not become an article. Each lands on the URL's frontier item and in run counts. */
export const failureReason = z.enum([
  "robots_disallowed",
  "robots_unavailable",
  "blocked_address",
  "invalid_url",
  "bad_scheme",
  "too_many_redirects",
  "redirect_loop",
  "timeout",
  "too_large",
  "not_html",
  "network_error",
  "http_4xx",
  "http_5xx",
  "http_404",
  "http_410",
  "http_429",
  "decode_error",
  /** A Content-Encoding we refuse to decode: unsupported, or more codings stacked than servers use. */
  "bad_encoding",
  "parse_error",
  "off_host",
  "no_article",
  "thin_content",
  /** The extractor itself failed on the page (a bug to fix, not the page's fault): detail has the error. */
  "extraction_error",
  /** A write to the crawl's own storage (DynamoDB, S3) failed after the SDK's retries. */
  "storage_error",
  /** The previous delivery ended without an outcome: the function timed out, ran out of memory or died. */
  "killed",
  /** An unexpected error in the crawl's code (a bug): the message is retried, then dead-lettered. */
  "internal_error",
]);
export type FailureReason = z.infer<typeof failureReason>;

/** Message on the fetch queue: one canonical URL to fetch. */
export const fetchMessageSchema = z.object({
  url: z.url(),
  source_id: z.string(),
  publication: z.string(),
  discovered_from: z.string(),
  run_id: z.string(),
  lastmod: z.optional(z.nullable(isoInstant)),
  hint_title: z.optional(z.nullable(z.string())),
  hint_published_at: z.optional(z.nullable(z.string())),
  language_hint: z.optional(z.nullable(z.string())),
  /** The source's own settings (sources file), carried so that fetch applies them: its hosts' minimum
   * gap between requests, the hosts its pages may name as rel=canonical, and its IANA time zone (the
   * zone of published_day). Absent: the deployment's (no zone: the day the page states). */
  min_delay_ms: z.optional(z.int().check(z.nonnegative())),
  partners: z.optional(z.array(z.string())),
  timezone: z.optional(z.string()),
  /** The page's slot on its host's schedule (epoch ms, the Hosts table's clock), reserved by discovery:
   * the message is delayed to it (SQS allows 15 minutes; fetch sends a page come early again, delayed
   * towards its slot: fetch-queue-return.ts), and
   * the page takes the host at it without queueing behind the schedule again. Absent: none reserved.
   * A queue message, not a stored record: an older message without it is paced as before. */
  slot_at: z.optional(z.int().check(z.nonnegative())),
});
export type FetchMessage = z.infer<typeof fetchMessageSchema>;

/** Message on the dedup queue: small, carries the signature computed by fetch. */
export const dedupMessageSchema = z.object({
  article_id: z.string(),
  url: z.string(),
  publication: z.string(),
  source_id: z.string(),
  headline: z.nullable(z.string()),
  published_at: z.nullable(instant),
  collected_at: instant,
  /** Opaque to everything but shared/dedup: see shared/dedup/fingerprint.ts. */
  fingerprint: z.record(z.string(), z.unknown()),
  /** The article's latest revision, when it has one: dedup puts it on the article's member item. */
  revision: z.optional(articleRevisionSchema),
});
export type DedupMessage = z.infer<typeof dedupMessageSchema>;

/** Clusters table: one summary item per cluster (item = "summary"). */
export const clusterSummarySchema = z.object({
  record_version: recordVersion,
  record_type: z.literal("summary"),
  cluster_id: z.string(),
  item: z.literal("summary"),
  /** The earliest published copy (unknown dates last, then the smaller id) and its outlet. */
  canonical_article_id: z.string(),
  canonical_url: z.string(),
  headline: z.nullable(z.string()),
  publication: z.string(),
  source_id: z.string(),
  first_published_at: z.nullable(instant),
  last_published_at: z.nullable(instant),
  article_count: z.int().check(z.positive()),
  outlet_count: z.int().check(z.positive()),
  /** Seconds from first_published_at until the 10th distinct outlet carried the story (by the outlets'
   * carried_at, so a late-crawled earlier copy corrects it); null below ten outlets. */
  seconds_to_10_outlets: z.nullable(z.number().check(z.nonnegative())),
  /** +1 on every write of this item: of two images of one summary, the higher revision is newer. */
  revision: z.int().check(z.positive()),
  updated_at: instant,
  /** Set when a merge retired this cluster: the id that absorbed it (which may itself be retired
   * later: follow the chain). A retired summary keeps its last counts but no longer counts. */
  merged_into: z.nullable(z.string()),
});
export type ClusterSummary = z.infer<typeof clusterSummarySchema>;

/** Clusters table: one member item per article (item = "member#<article_id>"). */
export const clusterMemberSchema = z.object({
  record_version: recordVersion,
  record_type: z.literal("member"),
  cluster_id: z.string(),
  item: z.string().check(z.regex(/^member#/)),
  article_id: z.string(),
  url: z.string(),
  publication: z.string(),
  source_id: z.string(),
  published_at: z.nullable(instant),
  collected_at: instant,
  /** Estimated similarity to the article it was confirmed against (1 for the first member). */
  similarity: z.number().check(z.gte(0), z.lte(1)),
  /** The retired cluster this member was moved from by a merge (its REMOVE there is the other half). */
  moved_from: z.nullable(z.string()),
  /** Since v8: the article's latest revision (a MODIFY that raises its number is `article_revised`). */
  latest_revision: z.nullable(articleRevisionSchema),
});
export type ClusterMember = z.infer<typeof clusterMemberSchema>;

/** Clusters table: one item per outlet that carried the story (item = "outlet#<source_id>"). */
export const clusterOutletSchema = z.object({
  record_version: recordVersion,
  record_type: z.literal("outlet"),
  cluster_id: z.string(),
  item: z.string().check(z.regex(/^outlet#/)),
  source_id: z.string(),
  publication: z.string(),
  /** When the outlet first carried the story: its earliest copy's published_at, else collected_at.
   * Only ever moves earlier. */
  carried_at: instant,
});
export type ClusterOutlet = z.infer<typeof clusterOutletSchema>;

export const clusterRecordSchema = z.discriminatedUnion("record_type", [
  clusterSummarySchema,
  clusterMemberSchema,
  clusterOutletSchema,
]);
export type ClusterRecord = z.infer<typeof clusterRecordSchema>;
