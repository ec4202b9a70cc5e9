/**
 * Sources are data: a push adds, changes and removes sources in the Sources table (keeping what the
 * quality λ wrote on them), and the next tick of the dispatcher discovers exactly the sources due in
 * the new set, through the discover queue, against a real loopback site.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { SourcesTable } from "../../../shared/aws/sources-table";
import type { DailyQuality } from "../../../shared/quality/publisher-stats";
import { type NewsServer, send, startNewsServer, urlset } from "../../support/news-server";
import { uniquePrefix } from "../../support/unique-prefix";

/** The tick this test runs at: 05:00 UTC, when daily sources (the default cadence) are due. */
const TICK = "2026-12-02T05:00:00.000Z";
const body = Array.from({ length: 300 }, (_, i) => `word${(i * 31) % 997}`).join(" ");
const page = (title: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head>
<body><article><h1>${title}</h1><p>${body} ${title}</p></article></body></html>`;

describe("storytrail sources push, then the next discovery run", () => {
  let site: NewsServer;
  let runtime: LocalRuntime;

  beforeAll(async () => {
    site = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
    // Each path prefix is one publisher's sitemap and its one story.
    for (const p of ["a", "a2", "b", "c", "d", "e"]) {
      site.route(`/${p}/sitemap.xml`, (req, res, s) =>
        send("application/xml", urlset([s.url(`/${p}/story`)]))(req, res, s),
      );
      site.route(`/${p}/story`, send("text/html; charset=utf-8", page(`Story of ${p}`)));
    }
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("push"),
      settings: { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true", STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
    });
  });

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  const source = (id: string, sitemap = id, extra: Record<string, unknown> = {}) => ({
    id,
    publication: `Publisher ${id}`,
    homepage: site.url("/"),
    sitemaps: [site.url(`/${sitemap}/sitemap.xml`)],
    ...extra,
  });

  it("adds, changes and removes sources, and the next run crawls exactly the new set", async () => {
    const first = await runtime.pushSources([
      source("a"),
      source("b", "b", { schedule: "rate(1 hour)" }),
      source("c"),
    ]);
    expect(first.added.map((s) => s.id)).toEqual(["a", "b", "c"]);
    // What the quality λ keeps on a source's item, which a push must leave alone.
    const state = new SourcesTable(runtime.clients.doc, runtime.resources.tables.sources);
    const history: DailyQuality[] = [
      { day: "2026-12-01", articles: 7, median_words: 420, valid_date_share: 1 },
    ];
    await state.saveQualityHistory("a", history);

    // a moves to another sitemap, c goes, d comes, e comes on a cadence not due at the tick.
    const second = await runtime.pushSources([
      source("a", "a2"),
      source("b", "b", { schedule: "rate(1 hour)" }),
      source("d"),
      source("e", "e", { schedule: "cron(0 6 * * ? *)" }),
    ]);
    expect(second.added.map((s) => s.id)).toEqual(["d", "e"]);
    expect(second.changed.map((c) => c.after.id)).toEqual(["a"]);
    expect(second.removed.map((s) => s.id)).toEqual(["c"]);
    expect(second.unchanged).toBe(1);
    expect(await state.qualityHistory("a")).toEqual(history);
    expect((await runtime.items("sources")).map((i) => i.source_id).sort()).toEqual(["a", "b", "d", "e"]);

    const run = await runtime.discoverDue({ scheduled_time: TICK });
    expect(run.dispatch).toEqual({ run_id: "2026-12-02T05:00", sources: 4, dispatched: 3 });
    expect(run.sources.map((s) => s.source_id)).toEqual(["a", "b", "d"]);
    expect(run.enqueued).toBe(3);
    await runtime.drain();

    // Exactly the new set's sitemaps were read and their stories fetched: not a's old one, not c, not e.
    const read = (p: string) => site.hits.get(`/${p}/sitemap.xml`) ?? 0;
    expect(["a", "a2", "b", "c", "d", "e"].map(read)).toEqual([0, 1, 1, 0, 1, 0]);
    const articles = await runtime.items("articles");
    expect(articles.map((a) => `${a.source_id} ${new URL(String(a.url)).pathname}`).sort()).toEqual([
      "a /a2/story",
      "b /b/story",
      "d /d/story",
    ]);
    expect(await runtime.runCounts("2026-12-02T05:00")).toMatchObject({ claimed: 3, articles: 3, failed: 0 });
  });
});
