/**
 * One archive of a synthetic day in a fresh process, so its peak RSS is its own (bench/archive.ts):
 * N news-like articles (bench/synthetic-articles.ts, ~500 words), three to a story, through the archive
 * writer (shared/archive/) into a local folder, the source a generator behind the archive's port.
 *
 *   npx tsx bench/archive-child.ts ARTICLES DIR
 * → one JSON line {articles, stories, seconds, maxRssMb, bytes, articleBytes, storyBytes, codec, files}
 */
import { FolderObjectStore } from "../infra/local/folder-object-store";
import { archiveDay } from "../shared/archive/day-archive";
import { archiveCodec } from "../shared/archive/parquet-codec";
import type { ArchiveSource, DayLease } from "../shared/archive/ports";
import { syntheticArticles } from "./synthetic-articles";

const [countText, dir] = process.argv.slice(2);
const count = Number(countText);
const DAY = "2026-12-01";
const PAGE = 1_000;
const SOURCES = 500;
const storyOf = (i: number) => `c-${String(Math.floor(i / 3)).padStart(8, "0")}`;
const at = (i: number) =>
  new Date(Date.parse(`${DAY}T00:00:00Z`) + Math.floor((i * 86_400_000) / count)).toISOString();
const index = (articleId: string) => Number(articleId.slice(1));

function articleItem(a: { id: string; title: string; text: string }, i: number): Record<string, unknown> {
  const source = `source-${i % SOURCES}`;
  return {
    record_version: 7,
    article_id: a.id,
    url: `https://news${i % SOURCES}.example/2026/12/01/${a.id}`,
    url_variants: new Set([`https://news${i % SOURCES}.example/2026/12/01/${a.id}?amp=1`]),
    source_id: source,
    publication: `News ${i % SOURCES}`,
    headline: a.title,
    headline_declared: a.title,
    kicker: null,
    section: "world",
    authors: ["Maria Lopez"],
    credit: ["Continental Wire"],
    language: "en",
    published_at: at(i),
    published_day: DAY,
    published_at_source: "jsonld",
    published_at_structured: null,
    date_flag: null,
    date_order_flag: null,
    modified_at: null,
    collected_at: at(i),
    collected_day: DAY,
    is_accessible_for_free: true,
    word_count: a.text.split(" ").length,
    http_status: 200,
    extractor_version: "bench",
    raw_key: null,
    body: a.text,
  };
}

const source: ArchiveSource = {
  async *dayArticles() {
    let page: Record<string, unknown>[] = [];
    let i = 0;
    for (const a of syntheticArticles(count, 500, 7)) {
      page.push(articleItem(a, i++));
      if (page.length === PAGE) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  },
  countDay: async () => count,
  storyIds: async (ids) => new Map(ids.map((id) => [id, storyOf(index(id))])),
  async storyItems(storyId) {
    const first = Number(storyId.slice(2)) * 3;
    const members = [first, first + 1, first + 2].filter((i) => i < count);
    const items: Record<string, unknown>[] = [
      {
        cluster_id: storyId,
        item: "summary",
        record_type: "summary",
        headline: "A story",
        canonical_article_id: `a${String(first).padStart(7, "0")}`,
        canonical_url: "https://news0.example/x",
        publication: "News 0",
        updated_at: at(first),
        merged_into: null,
      },
    ];
    for (const i of members) {
      const id = `a${String(i).padStart(7, "0")}`;
      items.push({
        cluster_id: storyId,
        item: `member#${id}`,
        record_type: "member",
        article_id: id,
        url: `https://news${i % SOURCES}.example/2026/12/01/${id}`,
        publication: `News ${i % SOURCES}`,
        source_id: `source-${i % SOURCES}`,
        published_at: at(i),
        collected_at: at(i),
      });
      items.push({
        cluster_id: storyId,
        item: `outlet#source-${i % SOURCES}`,
        record_type: "outlet",
        source_id: `source-${i % SOURCES}`,
        carried_at: at(i),
      });
    }
    return items;
  },
  expireArticles: async () => {},
  expireStoryItems: async () => {},
};
const lease: DayLease = { acquire: async () => true, release: async () => {} };

const started = performance.now();
const codec = archiveCodec();
const m = await archiveDay(
  {
    source,
    store: new FolderObjectStore(dir!),
    lease,
    codec,
    hotDays: 30,
    summaryDays: 90,
    leaseMs: 900_000,
  },
  DAY,
  { runId: "bench", now: new Date(`${DAY}T23:59:59Z`) },
);
const sum = (files: readonly { bytes: number }[]) => files.reduce((n, f) => n + f.bytes, 0);
process.stdout.write(
  `${JSON.stringify({
    articles: m.tables.articles.reduce((n, f) => n + f.rows, 0),
    stories: m.tables.stories.reduce((n, f) => n + f.rows, 0),
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    bytes: sum(m.tables.articles) + sum(m.tables.stories),
    articleBytes: sum(m.tables.articles),
    storyBytes: sum(m.tables.stories),
    codec: codec.name,
    files: m.tables.articles.length + m.tables.stories.length,
    node: process.version,
  })}\n`,
);
