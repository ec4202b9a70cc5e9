/**
 * The archive's Parquet bytes per article, measured: synthetic articles (bench/synthetic-articles.ts, the
 * text the metered run's news web serves, 600 words) made into the export's rows and written through the
 * export's own Parquet writer (shared/export/formats.ts, hyparquet-writer) in part files of PART_ROWS rows,
 * as the archive writes a day. DuckDB reads each file's footer back: the codec the writer used and each
 * column's compressed bytes, so the bytes a query that skips the body scans are measured, not guessed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type { ArticleRow, StoryCopy, StoryRow } from "../shared/export/dataset";
import { encodeTable } from "../shared/export/formats";
import { datasetTables } from "../shared/export/tables";
import { EXTRACTOR_VERSION } from "../shared/extract/article";
import { articleIdFor } from "../shared/url/canonical-url";
import { syntheticArticles } from "./synthetic-articles";

/** Rows per part file: ~100,000 articles are ~180 MB of Parquet, near the 128-512 MB Athena and Spark like. */
export const PART_ROWS = 100_000;
/** The news web's article length (bench/news-web.ts), whose items the metered run stored. */
const WORDS_PER_ARTICLE = 600;
/** Outlets the synthetic day's articles are spread over (the design's 10,000 sources). */
const SOURCES = 10_000;

export interface ArchiveBytes {
  readonly articles: number;
  readonly stories: number;
  /** The codec(s) the export's writer used, read from the files' footers. */
  readonly codecs: readonly string[];
  /** Parquet bytes per article: the articles files, the same without the body column, the stories files. */
  readonly articleBytes: number;
  readonly articleBytesWithoutBody: number;
  readonly storyBytes: number;
  /** Mean body length before compression, for the ratio. */
  readonly bodyBytes: number;
  /** CPU milliseconds per article to encode both tables. */
  readonly encodeCpuMsPerArticle: number;
}

interface Story {
  readonly id: string;
  readonly headline: string;
  readonly copies: (StoryCopy & { source_id: string })[];
}

const sourceOf = (i: number): string => `outlet-${(i * 2_654_435_761) % SOURCES}`;
const iso = (ms: number): string => new Date(ms).toISOString();

function articleRow(
  a: { id: string; title: string; text: string; ts: string },
  i: number,
  story: Story,
): ArticleRow {
  const source = sourceOf(i);
  const url = `https://www.${source}.example/news/${a.ts.slice(0, 10).replaceAll("-", "/")}/${a.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 60)}-${a.id}`;
  const published = Date.parse(a.ts);
  const first = story.copies[0]?.published_at ?? a.ts;
  return {
    article_id: articleIdFor(url),
    story_id: story.id,
    url,
    url_variants: i % 3 === 0 ? [`${url}?utm_source=rss&utm_medium=feed`] : [],
    source_id: source,
    publication: `Outlet ${source.slice(7)}`,
    headline: a.title,
    headline_declared: a.title,
    kicker: null,
    section: ["world", "politics", "business", "sport", "culture"][i % 5] ?? null,
    authors: a.text.startsWith("By ") ? [a.text.slice(3, a.text.indexOf("\n"))] : [],
    credit: i % 4 === 0 ? ["Continental Wire"] : [],
    language: "en",
    published_at: a.ts,
    published_day: a.ts.slice(0, 10),
    published_at_source: "json-ld",
    published_at_structured: null,
    date_flag: null,
    date_order_flag: null,
    modified_at: i % 5 === 0 ? iso(published + 3_600_000) : null,
    collected_at: iso(published + 600_000),
    is_accessible_for_free: i % 20 !== 0,
    word_count: a.text.split(/\s+/).length,
    http_status: 200,
    extractor_version: EXTRACTOR_VERSION,
    raw_key: i % 10 === 0 ? `raw/${a.ts.slice(0, 10)}/${articleIdFor(url)}.html.gz` : null,
    delay_seconds: Math.round((published - Date.parse(first)) / 1000),
    body: a.text,
  };
}

function storyRow(s: Story, updatedAt: string): StoryRow {
  const byOutlet = new Map<string, StoryCopy[]>();
  for (const { source_id, ...c } of s.copies)
    byOutlet.set(source_id, [...(byOutlet.get(source_id) ?? []), c]);
  const first = s.copies[0]?.published_at ?? null;
  const secs = (t: string | null) =>
    t && first ? Math.round((Date.parse(t) - Date.parse(first)) / 1000) : null;
  const outlets = [...byOutlet].map(([source_id, copies]) => ({
    publication: `Outlet ${source_id.slice(7)}`,
    source_id,
    carried_at: copies[0]?.published_at ?? null,
    delay_seconds: secs(copies[0]?.published_at ?? null),
    copies,
  }));
  const nth = (n: number) => secs(outlets[n - 1]?.carried_at ?? null);
  const first0 = s.copies[0];
  return {
    story_id: s.id,
    headline: s.headline,
    canonical_article_id: first0?.article_id ?? s.id,
    canonical_url: first0?.url ?? "",
    canonical_publication: outlets[0]?.publication ?? "",
    first_published_at: first,
    last_published_at: s.copies.at(-1)?.published_at ?? null,
    article_count: s.copies.length,
    outlet_count: outlets.length,
    seconds_to_2_outlets: nth(2),
    seconds_to_5_outlets: nth(5),
    seconds_to_10_outlets: nth(10),
    spread_seconds: secs(outlets.at(-1)?.carried_at ?? null) ?? 0,
    outlets,
    updated_at: updatedAt,
  };
}

interface FileFooter {
  readonly codecs: string[];
  readonly bytesByColumn: Map<string, number>;
}

async function readFooter(file: string): Promise<FileFooter> {
  const db = await DuckDBInstance.create(":memory:");
  const conn = await db.connect();
  try {
    const rows = (
      await conn.runAndReadAll(
        `SELECT path_in_schema AS col, compression AS codec, SUM(total_compressed_size)::BIGINT AS bytes
         FROM parquet_metadata('${file}') GROUP BY ALL`,
      )
    ).getRowObjectsJson() as { col: string; codec: string; bytes: string | number }[];
    const bytesByColumn = new Map<string, number>();
    // A nested column's leaves are named `outlets, copies, …`: counted under their top-level column.
    for (const r of rows) {
      const top = String(r.col).split(",")[0]!.trim();
      bytesByColumn.set(top, (bytesByColumn.get(top) ?? 0) + Number(r.bytes));
    }
    return { codecs: [...new Set(rows.map((r) => String(r.codec)))], bytesByColumn };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** Writes `count` synthetic articles of one day (and their stories) as the archive would, and measures them. */
export async function measureArchiveBytes(count: number, seed = 7): Promise<ArchiveBytes> {
  const dir = mkdtempSync(path.join(tmpdir(), "storytrail-archive-bytes-"));
  const stories = new Map<string, Story>();
  const codecs = new Set<string>();
  let articleBytes = 0;
  let bodyColumnBytes = 0;
  let storyBytes = 0;
  let bodyBytes = 0;
  let cpuUs = 0;
  let part = 0;
  const write = async (table: "articles" | "stories", articles: ArticleRow[], storyRows: StoryRow[]) => {
    const t = datasetTables({ articles, stories: storyRows, revisions: [] }).find((x) => x.name === table)!;
    const cpu = process.cpuUsage();
    const bytes = encodeTable(t, "parquet") as Uint8Array;
    const used = process.cpuUsage(cpu);
    cpuUs += used.user + used.system;
    const file = path.join(dir, `${table}-${part++}.parquet`);
    writeFileSync(file, bytes);
    const footer = await readFooter(file);
    rmSync(file);
    for (const c of footer.codecs) codecs.add(c);
    return { bytes: bytes.byteLength, body: footer.bytesByColumn.get("body") ?? 0 };
  };
  try {
    let rows: ArticleRow[] = [];
    let i = 0;
    for (const a of syntheticArticles(count, WORDS_PER_ARTICLE, seed)) {
      // Copies keep their original's paragraphs (a byline may come first): the first other paragraph is the story.
      const lede = a.text.split("\n\n").find((p) => !p.startsWith("By ")) ?? a.text;
      const key = articleIdFor(lede).slice(0, 16);
      const story = stories.get(key) ?? { id: key, headline: a.title, copies: [] };
      stories.set(key, story);
      const row = articleRow(a, i++, story);
      story.copies.push({
        article_id: row.article_id,
        url: row.url,
        published_at: row.published_at,
        collected_at: row.collected_at,
        source_id: row.source_id,
      });
      bodyBytes += Buffer.byteLength(row.body);
      rows.push(row);
      if (rows.length === PART_ROWS) {
        const r = await write("articles", rows, []);
        articleBytes += r.bytes;
        bodyColumnBytes += r.body;
        rows = [];
      }
    }
    if (rows.length > 0) {
      const r = await write("articles", rows, []);
      articleBytes += r.bytes;
      bodyColumnBytes += r.body;
    }
    const updatedAt = iso(Date.parse("2024-03-02T00:00:00Z"));
    const all = [...stories.values()].map((s) => storyRow(s, updatedAt));
    for (let k = 0; k < all.length; k += PART_ROWS)
      storyBytes += (await write("stories", [], all.slice(k, k + PART_ROWS))).bytes;
    return {
      articles: count,
      stories: stories.size,
      codecs: [...codecs],
      articleBytes: articleBytes / count,
      articleBytesWithoutBody: (articleBytes - bodyColumnBytes) / count,
      storyBytes: storyBytes / count,
      bodyBytes: bodyBytes / count,
      encodeCpuMsPerArticle: cpuUs / 1000 / count,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
