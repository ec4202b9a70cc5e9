/**
 * The exported tables' columns, declared once: every format writes these names in this order, and
 * each column's kind decides its Parquet type and its CSV spelling.
 */
import type { DatasetTableName } from "../config/resource-names";
import type { ArticleRow, Dataset, StoryRow } from "./dataset";
import type { RevisionRow } from "./revision-rows";

/** `json` columns hold lists or objects: nested in JSONL, JSON text in CSV, Parquet's JSON type. */
export type ColumnKind = "string" | "int" | "bool" | "timestamp" | "json";

export interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
}

type Columns<R> = { readonly [K in keyof R]-?: ColumnKind };

const columnList = (c: Record<string, ColumnKind>): Column[] =>
  Object.entries(c).map(([name, kind]) => ({ name, kind }));

const articleColumns: Columns<ArticleRow> = {
  article_id: "string",
  story_id: "string",
  url: "string",
  url_variants: "json",
  source_id: "string",
  publication: "string",
  headline: "string",
  headline_declared: "string",
  kicker: "string",
  section: "string",
  authors: "json",
  credit: "json",
  language: "string",
  published_at: "timestamp",
  published_day: "string",
  published_at_source: "string",
  // An instant or a day: text, not a timestamp column.
  published_at_structured: "string",
  date_flag: "string",
  date_order_flag: "string",
  modified_at: "timestamp",
  collected_at: "timestamp",
  is_accessible_for_free: "bool",
  word_count: "int",
  http_status: "int",
  extractor_version: "string",
  raw_key: "string",
  delay_seconds: "int",
  body: "string",
};

const storyColumns: Columns<StoryRow> = {
  story_id: "string",
  headline: "string",
  canonical_article_id: "string",
  canonical_url: "string",
  canonical_publication: "string",
  first_published_at: "timestamp",
  last_published_at: "timestamp",
  article_count: "int",
  outlet_count: "int",
  seconds_to_2_outlets: "int",
  seconds_to_5_outlets: "int",
  seconds_to_10_outlets: "int",
  spread_seconds: "int",
  outlets: "json",
  updated_at: "timestamp",
};

const revisionColumns: Columns<RevisionRow> = {
  article_id: "string",
  story_id: "string",
  url: "string",
  source_id: "string",
  number: "int",
  revision_count: "int",
  collected_at: "timestamp",
  modified_at: "timestamp",
  headline: "string",
  previous_headline: "string",
  headline_changed: "bool",
  body_changed: "bool",
  body_hash: "string",
  words_added: "int",
  words_removed: "int",
  added_sample: "string",
  removed_sample: "string",
  notice: "string",
  notice_text: "string",
  previous_body_key: "string",
};

/** Each exported table's columns, in order: the archive's Parquet and its Glue tables have exactly these. */
export const datasetColumns: Readonly<Record<DatasetTableName, readonly Column[]>> = {
  articles: columnList(articleColumns),
  stories: columnList(storyColumns),
  revisions: columnList(revisionColumns),
};

export interface Table {
  /** The file's base name, the same in every format (`articles.jsonl`, `articles.parquet`, …). */
  readonly name: DatasetTableName;
  readonly columns: readonly Column[];
  readonly rows: readonly Record<string, unknown>[];
}

export function datasetTables(d: Dataset): Table[] {
  return [
    {
      name: "articles",
      columns: datasetColumns.articles,
      rows: d.articles as unknown as Record<string, unknown>[],
    },
    {
      name: "stories",
      columns: datasetColumns.stories,
      rows: d.stories as unknown as Record<string, unknown>[],
    },
    {
      name: "revisions",
      columns: datasetColumns.revisions,
      rows: d.revisions as unknown as Record<string, unknown>[],
    },
  ];
}
