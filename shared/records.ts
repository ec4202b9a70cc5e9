/**
 * The record formats storytrail stores and emits, as zod schemas and the types inferred from them.
 * Consumers of the Clusters stream can import this file (`storytrail/records`) and parse what they read.
 * Bump RECORD_VERSION on any incompatible change and document it in the README.
 */
import { z } from "zod";

export const RECORD_VERSION = 1;

const isoInstant = z.string().datetime({ offset: true });
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const publishedAtSource = z.enum(["jsonld", "microdata", "meta", "time", "url", "text"]);
export type PublishedAtSource = z.infer<typeof publishedAtSource>;

/** Why published_at is null (or, for `missing`, why there is no date at all). Never a guess. */
export const dateFlag = z.enum(["missing", "no_timezone", "future", "unparseable"]);
export type DateFlag = z.infer<typeof dateFlag>;

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

/** What the extractor reads off one page. Pure function of (html, url, headers, now). */
export const extractionSchema = z.object({
  /** The page's own rel=canonical / og:url / JSON-LD url when it stays on the same site, else null. */
  canonical_from_page: z.string().nullable(),
  headline: z.string().nullable(),
  body: z.string(),
  publication: z.string().nullable(),
  section: z.string().nullable(),
  authors: z.array(z.string()),
  published_at: isoInstant.nullable(),
  published_day: isoDay.nullable(),
  published_at_source: publishedAtSource.nullable(),
  date_flag: dateFlag.nullable(),
  modified_at: isoInstant.nullable(),
  language: z.string().nullable(),
  language_source: languageSource.nullable(),
  /** false when the page declares itself paywalled (schema.org isAccessibleForFree). Never circumvented. */
  is_accessible_for_free: z.boolean().nullable(),
  word_count: z.number().int().nonnegative(),
});
export type Extraction = z.infer<typeof extractionSchema>;

export const articleSchema = extractionSchema.extend({
  record_version: z.literal(RECORD_VERSION),
  article_id: z.string(),
  url: z.string().url(),
  url_variants: z.array(z.string()),
  source_id: z.string(),
  collected_at: isoInstant,
  http_status: z.number().int(),
  raw_key: z.string().nullable(),
  extractor_version: z.string(),
  cluster_id: z.string().nullable(),
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
  "parse_error",
  "no_article",
  "thin_content",
]);
export type FailureReason = z.infer<typeof failureReason>;

/** Message on the fetch queue: one canonical URL to fetch. */
export const fetchMessageSchema = z.object({
  url: z.string().url(),
  source_id: z.string(),
  publication: z.string(),
  discovered_from: z.string(),
  run_id: z.string(),
  lastmod: isoInstant.nullable().optional(),
  hint_title: z.string().nullable().optional(),
  hint_published_at: z.string().nullable().optional(),
  language_hint: z.string().nullable().optional(),
});
export type FetchMessage = z.infer<typeof fetchMessageSchema>;

/** Message on the dedup queue: small, carries the signature computed by fetch. */
export const dedupMessageSchema = z.object({
  article_id: z.string(),
  url: z.string(),
  publication: z.string(),
  source_id: z.string(),
  headline: z.string().nullable(),
  published_at: isoInstant.nullable(),
  collected_at: isoInstant,
  /** Opaque to everything but shared/dedup: see shared/dedup/fingerprint.ts. */
  fingerprint: z.record(z.string(), z.unknown()),
});
export type DedupMessage = z.infer<typeof dedupMessageSchema>;

/** Clusters table: one summary item per cluster (item = "summary"). */
export const clusterSummarySchema = z.object({
  record_version: z.literal(RECORD_VERSION),
  record_type: z.literal("summary"),
  cluster_id: z.string(),
  item: z.literal("summary"),
  canonical_article_id: z.string(),
  canonical_url: z.string(),
  headline: z.string().nullable(),
  publication: z.string(),
  first_published_at: isoInstant.nullable(),
  last_published_at: isoInstant.nullable(),
  article_count: z.number().int().nonnegative(),
  outlet_count: z.number().int().nonnegative(),
  /** Seconds from first_published_at until the 10th distinct outlet published; null until then. */
  seconds_to_10_outlets: z.number().nullable().optional(),
  version: z.number().int().nonnegative(),
  updated_at: isoInstant,
  /** Set when a merge retired this cluster: the id that absorbed it. */
  merged_into: z.string().nullable().optional(),
});
export type ClusterSummary = z.infer<typeof clusterSummarySchema>;

/** Clusters table: one member item per article (item = "member#<article_id>"). */
export const clusterMemberSchema = z.object({
  record_version: z.literal(RECORD_VERSION),
  record_type: z.literal("member"),
  cluster_id: z.string(),
  item: z.string().startsWith("member#"),
  article_id: z.string(),
  url: z.string(),
  publication: z.string(),
  published_at: isoInstant.nullable(),
  collected_at: isoInstant.optional(),
  /** Estimated similarity to the article it was confirmed against (1 for the first member). */
  similarity: z.number().min(0).max(1),
});
export type ClusterMember = z.infer<typeof clusterMemberSchema>;

/** Clusters table: one item per outlet that carried the story (item = "outlet#<publication>"). */
export const clusterOutletSchema = z.object({
  record_version: z.literal(RECORD_VERSION),
  record_type: z.literal("outlet"),
  cluster_id: z.string(),
  item: z.string().startsWith("outlet#"),
  publication: z.string(),
});
export type ClusterOutlet = z.infer<typeof clusterOutletSchema>;

export const clusterRecordSchema = z.discriminatedUnion("record_type", [
  clusterSummarySchema,
  clusterMemberSchema,
  clusterOutletSchema,
]);
export type ClusterRecord = z.infer<typeof clusterRecordSchema>;
