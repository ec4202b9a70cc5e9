/**
 * The dataset as researchers want it: one row per article and one per live story, built from the
 * Clusters and Articles tables' items. Items are read field by field (not through the record schemas)
 * so that an export also reads a data directory written by an older record version.
 */

import { articleItemBody } from "../consumer/article-item";
import { type RevisionRow, revisionRows } from "./revision-rows";

/** Where the tables' items come from: a local data directory, a deployed table, or an S3 export. */
export interface DatasetSource {
  /** Every item of the Clusters table (summary, member and outlet items). */
  clusterItems(): AsyncIterable<Record<string, unknown>>;
  /** Every item of the Articles table. */
  articleItems(): AsyncIterable<Record<string, unknown>>;
  /** Every item of the Frontier table (what became of each URL), for the report's failure counts. */
  frontierItems(): AsyncIterable<Record<string, unknown>>;
}

export interface StoryCopy {
  readonly article_id: string;
  readonly url: string;
  readonly published_at: string | null;
  readonly collected_at: string | null;
}

export interface StoryOutlet {
  readonly publication: string;
  readonly source_id: string | null;
  /** Its earliest copy's published_at, else collected_at. */
  readonly carried_at: string | null;
  /** Seconds from the story's first publication until this outlet carried it. */
  readonly delay_seconds: number | null;
  readonly copies: readonly StoryCopy[];
}

export interface StoryRow {
  readonly story_id: string;
  readonly headline: string | null;
  readonly canonical_article_id: string;
  readonly canonical_url: string;
  readonly canonical_publication: string;
  readonly first_published_at: string | null;
  readonly last_published_at: string | null;
  readonly article_count: number;
  readonly outlet_count: number;
  readonly seconds_to_2_outlets: number | null;
  readonly seconds_to_5_outlets: number | null;
  readonly seconds_to_10_outlets: number | null;
  /** Seconds from the first to the last outlet's carried_at (0 for one outlet). */
  readonly spread_seconds: number | null;
  /** Outlets, earliest first. */
  readonly outlets: readonly StoryOutlet[];
  readonly updated_at: string | null;
}

export interface ArticleRow {
  readonly article_id: string;
  readonly story_id: string | null;
  readonly url: string;
  readonly url_variants: readonly string[];
  readonly source_id: string;
  readonly publication: string | null;
  readonly headline: string | null;
  /** The declared headline and the kicker (record version 5 on; null before). */
  readonly headline_declared: string | null;
  readonly kicker: string | null;
  readonly section: string | null;
  readonly authors: readonly string[];
  /** Organisations credited (record version 5 on; empty before). */
  readonly credit: readonly string[];
  readonly language: string | null;
  readonly published_at: string | null;
  readonly published_day: string | null;
  readonly published_at_source: string | null;
  /** The structured-data date the byline overrode (an instant or a day; record version 4 on), else null. */
  readonly published_at_structured: string | null;
  readonly date_flag: string | null;
  /** How a numeric date's day/month order was settled when the page's dates disagreed (record version 6 on; null before). */
  readonly date_order_flag: string | null;
  readonly modified_at: string | null;
  readonly collected_at: string | null;
  readonly is_accessible_for_free: boolean | null;
  readonly word_count: number;
  readonly http_status: number | null;
  readonly extractor_version: string | null;
  readonly raw_key: string | null;
  /** Seconds from its story's first publication to this article's (null without both dates). */
  readonly delay_seconds: number | null;
  readonly body: string;
}

export interface Dataset {
  readonly stories: StoryRow[];
  readonly articles: ArticleRow[];
  /** One row per revision the articles keep (revision-rows.ts). */
  readonly revisions: RevisionRow[];
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const strings = (v: unknown): string[] =>
  v instanceof Set || Array.isArray(v) ? [...(v as Iterable<unknown>)].map(String).sort() : [];

/** Timestamps in one form (UTC, `Z`, milliseconds): v1 records mix second and millisecond precision. */
function instant(v: unknown): string | null {
  const s = str(v);
  if (s === null) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

const seconds = (from: string | null, to: string | null): number | null =>
  from && to ? Math.round((Date.parse(to) - Date.parse(from)) / 1000) : null;

export interface Member extends StoryCopy {
  readonly cluster_id: string;
  readonly publication: string;
}

/** A member item of the Clusters table as the story row reads it. */
export function memberOf(item: Record<string, unknown>): Member {
  return {
    cluster_id: String(item.cluster_id),
    article_id: String(item.article_id),
    url: String(item.url ?? ""),
    publication: String(item.publication ?? ""),
    published_at: instant(item.published_at),
    collected_at: instant(item.collected_at),
  };
}

/** Seconds from `first` until the nth earliest of `times` (null below n). */
function secondsToNth(times: readonly string[], n: number, first: string | null): number | null {
  const t = times[n - 1];
  return t === undefined ? null : seconds(first, t);
}

export function storyRow(
  summary: Record<string, unknown>,
  members: readonly Member[],
  sourceOf: ReadonlyMap<string, string>,
): StoryRow {
  const when = (m: StoryCopy) => m.published_at ?? m.collected_at;
  const byOutlet = new Map<string, Member[]>();
  for (const m of members) {
    const list = byOutlet.get(m.publication) ?? [];
    list.push(m);
    byOutlet.set(m.publication, list);
  }
  const dated = members.flatMap((m) => (m.published_at ? [m.published_at] : [])).sort();
  const first = dated[0] ?? null;
  const outlets = [...byOutlet].map(([publication, copies]): StoryOutlet => {
    const sorted = [...copies].sort((a, b) => (when(a) ?? "~").localeCompare(when(b) ?? "~"));
    const carried = sorted[0] ? when(sorted[0]) : null;
    return {
      publication,
      source_id: sourceOf.get(sorted[0]?.article_id ?? "") ?? null,
      carried_at: carried,
      delay_seconds: seconds(first, carried),
      copies: sorted.map(({ article_id, url, published_at, collected_at }) => ({
        article_id,
        url,
        published_at,
        collected_at,
      })),
    };
  });
  outlets.sort(
    (a, b) =>
      (a.carried_at ?? "~").localeCompare(b.carried_at ?? "~") || a.publication.localeCompare(b.publication),
  );
  const carried = outlets.flatMap((o) => (o.carried_at ? [o.carried_at] : []));
  return {
    story_id: String(summary.cluster_id),
    headline: str(summary.headline),
    canonical_article_id: String(summary.canonical_article_id ?? ""),
    canonical_url: String(summary.canonical_url ?? ""),
    canonical_publication: String(summary.publication ?? ""),
    first_published_at: first,
    last_published_at: dated.at(-1) ?? null,
    article_count: members.length,
    outlet_count: outlets.length,
    seconds_to_2_outlets: secondsToNth(carried, 2, first),
    seconds_to_5_outlets: secondsToNth(carried, 5, first),
    seconds_to_10_outlets: secondsToNth(carried, 10, first),
    spread_seconds: seconds(carried[0] ?? null, carried.at(-1) ?? null),
    outlets,
    updated_at: instant(summary.updated_at),
  };
}

export function articleRow(
  item: Record<string, unknown>,
  story: Pick<StoryRow, "story_id" | "first_published_at"> | undefined,
): ArticleRow {
  const published_at = instant(item.published_at);
  return {
    article_id: String(item.article_id),
    story_id: story?.story_id ?? null,
    url: String(item.url ?? ""),
    url_variants: strings(item.url_variants),
    source_id: String(item.source_id ?? ""),
    publication: str(item.publication),
    headline: str(item.headline),
    // Absent before version 5.
    headline_declared: str(item.headline_declared),
    kicker: str(item.kicker),
    section: str(item.section),
    authors: Array.isArray(item.authors) ? item.authors.map(String) : [],
    credit: Array.isArray(item.credit) ? item.credit.map(String) : [],
    language: str(item.language),
    published_at,
    published_day: str(item.published_day),
    published_at_source: str(item.published_at_source),
    // Absent before version 4.
    published_at_structured: str(item.published_at_structured),
    date_flag: str(item.date_flag),
    // Absent before version 6.
    date_order_flag: str(item.date_order_flag),
    modified_at: instant(item.modified_at),
    collected_at: instant(item.collected_at),
    is_accessible_for_free:
      typeof item.is_accessible_for_free === "boolean" ? item.is_accessible_for_free : null,
    word_count: num(item.word_count) ?? 0,
    http_status: num(item.http_status),
    extractor_version: str(item.extractor_version),
    raw_key: str(item.raw_key),
    delay_seconds: seconds(story?.first_published_at ?? null, published_at),
    // Version 3 stores it gzip-compressed, version 2 as text: the records package reads both.
    body: articleItemBody(item),
  };
}

/**
 * Reads both tables once. A story is a summary without `merged_into`; its members are the member
 * items filed under its id (a merge moves them, so a retired story's stale outlet items and counts
 * are never read). Stories sort by outlet count, then first publication; articles by URL.
 */
export async function buildDataset(source: DatasetSource): Promise<Dataset> {
  const summaries = new Map<string, Record<string, unknown>>();
  const members = new Map<string, Member[]>();
  for await (const item of source.clusterItems()) {
    const id = String(item.cluster_id);
    const type = item.record_type ?? String(item.item).split("#")[0];
    if (type === "summary") summaries.set(id, item);
    else if (type === "member") {
      const list = members.get(id) ?? [];
      list.push(memberOf(item));
      members.set(id, list);
    }
  }
  const articleItems: Record<string, unknown>[] = [];
  const sourceOf = new Map<string, string>();
  for await (const item of source.articleItems()) {
    articleItems.push(item);
    if (typeof item.source_id === "string") sourceOf.set(String(item.article_id), item.source_id);
  }
  const stories: StoryRow[] = [];
  const storyOf = new Map<string, StoryRow>();
  for (const [id, summary] of summaries) {
    if (summary.merged_into) continue;
    const list = members.get(id) ?? [];
    if (list.length === 0) continue;
    const row = storyRow(summary, list, sourceOf);
    stories.push(row);
    for (const m of list) storyOf.set(m.article_id, row);
  }
  stories.sort(
    (a, b) =>
      b.outlet_count - a.outlet_count ||
      (a.first_published_at ?? "~").localeCompare(b.first_published_at ?? "~") ||
      a.story_id.localeCompare(b.story_id),
  );
  const articles = articleItems
    .map((item) => articleRow(item, storyOf.get(String(item.article_id))))
    .sort((a, b) => a.url.localeCompare(b.url));
  const revisions = revisionRows(articleItems, (id) => storyOf.get(id)?.story_id ?? null);
  return { stories, articles, revisions };
}
