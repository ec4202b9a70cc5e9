/**
 * One archive of a synthetic day, or one step of it, in a fresh process, so its peak RSS is its own
 * (bench/archive.ts): N news-like articles (bench/synthetic-articles.ts, ~500 words), three to a story,
 * through the archive (shared/archive/) into a local folder, the source a generator behind the
 * archive's port (its articles spread evenly over the day's `collected_at`).
 *
 *   npx tsx bench/archive-child.ts ARTICLES DIR                     the whole day in this process
 *   npx tsx bench/archive-child.ts ARTICLES DIR plan SHARD_ARTICLES  the plan, kept in DIR/plan.json
 *   npx tsx bench/archive-child.ts ARTICLES DIR write|mark K | commit | finish
 * → one JSON line {articles, stories, seconds, cpuSeconds, maxRssMb, bytes, …, codec, files, node}
 */

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FolderObjectStore } from "../infra/local/folder-object-store";
import { type ArchiveDeps, archiveDay } from "../shared/archive/day-archive";
import { commitDay } from "../shared/archive/day-commit";
import { finishDay } from "../shared/archive/day-finish";
import type { Manifest } from "../shared/archive/manifest";
import { archiveCodec } from "../shared/archive/parquet-codec";
import type { ArchiveSource, CollectedRange, DayLease } from "../shared/archive/ports";
import { markShard } from "../shared/archive/shard-mark";
import { type DayPlan, planDay } from "../shared/archive/shard-plan";
import { writeShard } from "../shared/archive/shard-write";
import { syntheticArticles } from "./synthetic-articles";

const [countText, dir, step = "whole", arg = "0"] = process.argv.slice(2);
const count = Number(countText);
const DAY = "2026-12-01";
const PAGE = 1_000;
const SOURCES = 500;
const storyOf = (i: number) => `c-${String(Math.floor(i / 3)).padStart(8, "0")}`;
const at = (i: number) =>
  new Date(Date.parse(`${DAY}T00:00:00Z`) + Math.floor((i * 86_400_000) / count)).toISOString();
const index = (articleId: string) => Number(articleId.slice(1));
const DAY_MS = 86_400_000;
const t0 = Date.parse(`${DAY}T00:00:00Z`);
/** The first article at or after `t` (at(i) = t0 + floor(i * DAY_MS / count)). */
const firstAt = (t: string | null, none: number) =>
  t === null ? none : Math.min(count, Math.max(0, Math.ceil(((Date.parse(t) - t0) * count) / DAY_MS)));
const indexes = (range?: CollectedRange) =>
  [firstAt(range?.from ?? null, 0), firstAt(range?.to ?? null, count)] as const;

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
  // A range's articles come from a generator of their own (seeded by the range's first index): the same
  // kind of text as the whole day's, without generating the articles before it.
  async *dayArticles(_day, range) {
    const [lo, hi] = indexes(range);
    let page: Record<string, unknown>[] = [];
    let i = lo;
    for (const a of syntheticArticles(hi - lo, 500, 7 + lo)) {
      page.push(articleItem({ ...a, id: `a${String(i).padStart(7, "0")}` }, i++));
      if (page.length === PAGE) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  },
  countDay: async (_day, range) => {
    const [lo, hi] = indexes(range);
    return hi - lo;
  },
  async *collectedAts(_day, range) {
    const [lo, hi] = indexes(range);
    for (let i = lo; i < hi; i += PAGE)
      yield Array.from({ length: Math.min(PAGE, hi - i) }, (_, j) => at(i + j));
  },
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
const deps: ArchiveDeps = {
  source,
  store: new FolderObjectStore(dir!),
  lease,
  codec,
  hotDays: 30,
  summaryDays: 90,
  leaseMs: 900_000,
};
const now = new Date(`${DAY}T23:59:59Z`);
const planFile = path.join(dir!, "plan.json");
const readPlan = () => JSON.parse(readFileSync(planFile, "utf8")) as DayPlan;
const sum = (files: readonly { bytes: number }[]) => files.reduce((n, f) => n + f.bytes, 0);
const rows = (files: readonly { rows: number }[]) => files.reduce((n, f) => n + f.rows, 0);
const ofManifest = (m: Manifest) => ({
  articles: rows(m.tables.articles),
  stories: rows(m.tables.stories),
  bytes: sum(m.tables.articles) + sum(m.tables.stories),
  articleBytes: sum(m.tables.articles),
  storyBytes: sum(m.tables.stories),
  files: m.tables.articles.length + m.tables.stories.length,
});
let out: Record<string, unknown>;
if (step === "whole") out = ofManifest(await archiveDay(deps, DAY, { runId: "bench", now }));
else if (step === "plan") {
  const plan = await planDay({ ...deps, shardArticles: Number(arg) }, DAY, "bench", now);
  writeFileSync(planFile, JSON.stringify(plan));
  out = { shards: plan.shards.length };
} else if (step === "write") {
  const plan = readPlan();
  const w = await writeShard(deps, plan, plan.shards[Number(arg)]!);
  out = { articles: w.articles, stories: w.stories, files: w.files };
} else if (step === "commit") out = ofManifest(await commitDay(deps, readPlan(), now));
else if (step === "mark") {
  await markShard(deps, readPlan(), Number(arg));
  out = {};
} else if (step === "finish") out = ofManifest(await finishDay(deps, readPlan(), now));
else throw new Error(`unknown step ${step}`);
process.stdout.write(
  `${JSON.stringify({
    articles: 0,
    stories: 0,
    bytes: 0,
    articleBytes: 0,
    storyBytes: 0,
    files: 0,
    ...out,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    codec: codec.name,
    node: process.version,
  })}\n`,
);
