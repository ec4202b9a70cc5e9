/**
 * The first queries a consumer writes over the archive (docs/dataset.md), each written once as SQL that
 * Athena (Trino) and DuckDB both run: over the Glue tables, or over a local run's `DIR/dataset/` read
 * with read_parquet(…, hive_partitioning = true). Only what both engines read alike: max_by, round,
 * CAST … AS DOUBLE (Trino divides integers as integers), counts as sums of CASE (DuckDB's count_if gives
 * NULL, Trino's 0, over a column of nulls); `dt` is cast to text on output, since DuckDB reads a
 * `dt=YYYY-MM-DD` folder as a DATE where Glue declares a string.
 */

/** How a query names the two tables: Glue's, or DuckDB's read_parquet over a folder. */
export interface DatasetRefs {
  readonly articles: string;
  readonly stories: string;
}

/** Inclusive UTC days (`dt`, the day collected), `YYYY-MM-DD`. */
export interface DayRange {
  readonly from: string;
  readonly to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Rows where `condition` holds (0 when none, whatever the nulls). */
const countWhere = (condition: string): string => `sum(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;

/** A SQL string literal (quotes doubled). */
const text = (s: string): string => `'${s.replace(/'/g, "''")}'`;

function days(r: DayRange): string {
  for (const d of [r.from, r.to])
    if (!DAY.test(d)) throw new Error(`dataset query: ${JSON.stringify(d)} is not a day YYYY-MM-DD`);
  return `dt BETWEEN ${text(r.from)} AND ${text(r.to)}`;
}

/** The Glue tables of a database (the stack's DatasetDatabaseName output). */
export const athenaTables = (database: string): DatasetRefs => ({
  articles: `"${database}"."articles"`,
  stories: `"${database}"."stories"`,
});

/** A local archive: `dir` is the folder holding `articles/` and `stories/` (a run's `DIR/dataset`). */
export const duckdbTables = (dir: string): DatasetRefs => {
  const files = (t: string) => `read_parquet(${text(`${dir}/${t}/*/*.parquet`)}, hive_partitioning = true)`;
  return { articles: files("articles"), stories: files("stories") };
};

/**
 * A week's (any range's) stories by how many outlets carried them. A story is a row in each day that
 * has one of its articles, as of that day's archive: its largest counts and latest headline stand.
 */
export function storiesByOutletCount(t: DatasetRefs, range: DayRange, limit = 20): string {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`dataset query: limit ${limit} is not a count`);
  return `SELECT story_id,
       max_by(headline, updated_at) AS headline,
       max(outlet_count) AS outlet_count,
       max(article_count) AS article_count
FROM ${t.stories}
WHERE ${days(range)}
GROUP BY story_id
ORDER BY outlet_count DESC, article_count DESC, story_id
LIMIT ${limit}`;
}

/** An outlet's pick-ups per day: its articles published after their story's first publication. */
export function outletPickupDelays(t: DatasetRefs, sourceId: string, range: DayRange): string {
  return `SELECT CAST(dt AS VARCHAR) AS day,
       count(*) AS pickups,
       min(delay_seconds) AS min_delay_seconds,
       max(delay_seconds) AS max_delay_seconds,
       round(avg(delay_seconds)) AS avg_delay_seconds,
       ${countWhere("delay_seconds <= 3600")} AS within_an_hour
FROM ${t.articles}
WHERE ${days(range)} AND source_id = ${text(sourceId)} AND delay_seconds > 0
GROUP BY dt
ORDER BY day`;
}

/** A publisher's articles per day and its extraction quality: body words, shares with a date, a
 * headline, behind a paywall (the report's quality table, from the archive). */
export function publisherDailyQuality(t: DatasetRefs, sourceId: string, range: DayRange): string {
  const share = (condition: string) => `round(CAST(${countWhere(condition)} AS DOUBLE) / count(*), 3)`;
  return `SELECT CAST(dt AS VARCHAR) AS day,
       count(*) AS articles,
       round(avg(word_count)) AS avg_words,
       ${share("published_at IS NOT NULL")} AS with_date,
       ${share("headline IS NOT NULL")} AS with_headline,
       ${share("is_accessible_for_free = false")} AS paywalled
FROM ${t.articles}
WHERE ${days(range)} AND source_id = ${text(sourceId)}
GROUP BY dt
ORDER BY day`;
}
