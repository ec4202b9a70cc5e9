/**
 * Looking again at articles whose source gives no lastmod: the schedule, then discovery and fetch on
 * DynamoDB Local with their clock passed in, over two days of a loopback site whose sitemap lists one
 * page without a lastmod and one with.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { ArticlesTable } from "../../../shared/aws/articles-table";
import { FrontierTable } from "../../../shared/aws/frontier-table";
import { HostPaceTable } from "../../../shared/aws/host-pace-table";
import { RawSamplesBucket } from "../../../shared/aws/raw-samples";
import { RevisionsBucket } from "../../../shared/aws/revisions-bucket";
import { SourcesTable } from "../../../shared/aws/sources-table";
import { DEFAULT_RECHECK_HOURS } from "../../../shared/config/crawl-settings";
import { runDiscovery } from "../../../shared/crawl/discover-run";
import { type FetchDeps, fetchArticle } from "../../../shared/crawl/fetch-article";
import { nextRecheck } from "../../../shared/crawl/recheck-schedule";
import { RobotsCache } from "../../../shared/discover/robots";
import { parseSources } from "../../../shared/discover/sources";
import { HttpClient } from "../../../shared/fetch/http";
import type { DedupMessage, FetchMessage } from "../../../shared/records";
import { articleIdFor } from "../../../shared/url/canonical-url";
import { type NewsServer, SITEMAP_NS, send, startNewsServer } from "../../support/news-server";
import { uniquePrefix } from "../../support/unique-prefix";

const T = Date.parse("2026-12-01T10:00:00Z");
const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe("nextRecheck", () => {
  const hours = DEFAULT_RECHECK_HOURS;
  it("counts the steps from the first fetch, skips those a late run passed, and ends after the last", () => {
    expect(nextRecheck({ lastmod: null }, null, hours, new Date(T))).toEqual({
      first_fetched_at: iso(T),
      recheck_at: iso(T + H),
    });
    const first = { first_fetched_at: iso(T) };
    expect(nextRecheck({}, first, hours, new Date(T + 1.1 * H)).recheck_at).toBe(iso(T + 4 * H));
    expect(nextRecheck({}, first, hours, new Date(T + 13 * H)).recheck_at).toBe(iso(T + 24 * H));
    expect(nextRecheck({}, first, hours, new Date(T + 26 * H)).recheck_at).toBeNull();
    // A source with lastmods says when its page changed; an empty schedule never looks.
    expect(nextRecheck({ lastmod: iso(T) }, null, hours, new Date(T)).recheck_at).toBeNull();
    // A publication date standing in for the lastmod (a feed's pubDate, a news sitemap's date) is none.
    const published = { lastmod: iso(T - H), hint_published_at: "2026-12-01T11:00:00+02:00" };
    expect(nextRecheck(published, null, hours, new Date(T)).recheck_at).toBe(iso(T + H));
    expect(nextRecheck({ lastmod: null }, null, [], new Date(T)).recheck_at).toBeNull();
  });
});

describe("looking again on discovery and fetch", () => {
  let site: NewsServer;
  let runtime: LocalRuntime;
  let frontier: FrontierTable;
  let fetchDeps: FetchDeps;
  let at = T;
  let sent: FetchMessage[] = [];
  let handed: DedupMessage[] = [];
  const page = (headline: string) =>
    `<!doctype html><html lang="en"><head><title>${headline}</title><meta property="article:published_time" content="2026-12-01T08:00:00Z"></head><body><article><h1>${headline}</h1><p>${Array.from(
      { length: 40 },
      (_, i) => `Flood water rose through the night in district ${i} and the river kept climbing.`,
    ).join(" ")}</p></article></body></html>`;

  const discover = async (run: string) => {
    sent = [];
    const http = new HttpClient({ userAgent: "storytrail-test", allowPrivateAddresses: true });
    const { doc } = runtime.clients;
    const sources = parseSources({
      sources: [
        {
          id: "r",
          publication: "River News",
          homepage: site.url("/"),
          sitemaps: [site.url("/s.xml"), site.url("/news.xml")],
        },
      ],
    });
    const summary = await runDiscovery(sources, run, {
      http,
      robots: new RobotsCache(http, "storytrail-test"),
      frontier,
      sourceState: new SourcesTable(doc, runtime.resources.tables.sources),
      fetchQueue: { send: async (batch) => void sent.push(...batch) },
      now: () => new Date(at),
      recheckHours: DEFAULT_RECHECK_HOURS,
      minHostDelayMs: 0,
      schedule: new HostPaceTable(doc, runtime.resources.tables.hosts, { minDelayMs: 1000, now: () => at }),
    });
    return summary.sources[0];
  };
  const fetchAll = async () => {
    handed = [];
    for (const m of sent) expect(await fetchArticle(m, fetchDeps)).toMatchObject({ kind: "article" });
  };
  const recheckAt = async (path: string) => (await frontier.get(site.url(path)))?.recheck_at ?? null;

  beforeAll(async () => {
    site = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
    site.route(
      "/s.xml",
      send(
        "application/xml",
        `<?xml version="1.0"?><urlset ${SITEMAP_NS}><url><loc>${site.url("/flood")}</loc></url><url><loc>${site.url("/dated")}</loc><lastmod>2026-12-01T09:00:00Z</lastmod></url></urlset>`,
      ),
    );
    // A news sitemap dates its page by publication alone.
    site.route(
      "/news.xml",
      send(
        "application/xml",
        `<?xml version="1.0"?><urlset ${SITEMAP_NS} xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"><url><loc>${site.url("/bridge")}</loc><news:news><news:publication><news:name>River News</news:name><news:language>en</news:language></news:publication><news:publication_date>2026-12-01T08:00:00Z</news:publication_date><news:title>Bridge closed</news:title></news:news></url></urlset>`,
      ),
    );
    site.route("/bridge", send("text/html; charset=utf-8", page("Bridge closed as the river rises")));
    site.route("/flood", send("text/html; charset=utf-8", page("River rises")));
    site.route("/dated", send("text/html; charset=utf-8", page("A page with a lastmod")));
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix("recheck") });
    frontier = new FrontierTable(runtime.clients.doc, runtime.resources.tables.frontier);
    const http = new HttpClient({ userAgent: "storytrail-test", allowPrivateAddresses: true });
    const rawSamples = new RawSamplesBucket(runtime.clients.s3, runtime.resources.buckets.raw);
    fetchDeps = {
      http,
      robots: new RobotsCache(http, "storytrail-test"),
      pacer: { wait: async () => {}, done: async () => {} },
      frontier,
      articles: new ArticlesTable(runtime.clients.doc, runtime.resources.tables.articles),
      rawSamples,
      revisions: new RevisionsBucket(rawSamples),
      dedupQueue: { send: async (m) => void handed.push(...m) },
      now: () => new Date(at),
      sampleRate: 0,
      recheckHours: DEFAULT_RECHECK_HOURS,
    };
  });

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  it("re-sends a page listed without lastmod (or dated by publication alone) when its re-check is due, in its host's slots, and stops after the schedule", async () => {
    expect(await discover("d1")).toMatchObject({ new: 3 });
    await fetchAll();
    expect([await recheckAt("/flood"), await recheckAt("/bridge"), await recheckAt("/dated")]).toEqual([
      iso(T + H),
      iso(T + H),
      null,
    ]);

    // Half an hour on, listed again: not due yet.
    at = T + 0.5 * H;
    expect(await discover("d2")).toMatchObject({ updated: 0 });
    expect(sent).toEqual([]);

    // Past the first step the page is sent again, with a slot on its host's schedule; its headline was
    // rewritten meanwhile, which the fetch keeps as a revision. The next look is at +4 h.
    at = T + 1.1 * H;
    site.route("/flood", send("text/html; charset=utf-8", page("River bursts its banks")));
    expect(await discover("d3")).toMatchObject({ updated: 2 });
    expect(sent.map((m) => m.url).sort()).toEqual([site.url("/bridge"), site.url("/flood")]);
    for (const m of sent) expect(m.slot_at).toBeGreaterThanOrEqual(at);
    await fetchAll();
    expect(handed.find((m) => m.url === site.url("/flood"))?.revision).toMatchObject({
      number: 1,
      previous_headline: "River rises",
    });
    expect(handed.find((m) => m.url === site.url("/bridge"))?.revision).toBeUndefined();
    expect(await recheckAt("/flood")).toBe(iso(T + 4 * H));

    // The next discovery run comes late (a source discovered daily): one look, and the schedule is over.
    at = T + 30 * H;
    expect(await discover("d4")).toMatchObject({ updated: 2 });
    await fetchAll();
    // The page had not changed since: no revision added.
    expect((await fetchDeps.articles.get(articleIdFor(site.url("/flood"))))?.revision_count).toBe(1);
    expect(await recheckAt("/flood")).toBeNull();
    at = T + 40 * H;
    expect(await discover("d5")).toMatchObject({ updated: 0 });
    expect([site.hits.get("/flood"), site.hits.get("/bridge"), site.hits.get("/dated")]).toEqual([3, 3, 1]);
  });

  it("gives a due re-check to one of two runs listing the page at once", async () => {
    const url = site.url("/twice");
    site.route("/twice", send("text/html; charset=utf-8", page("Two runs")));
    const claim = (run_id: string) =>
      frontier.claim({ url, source_id: "r", run_id, lastmod: null, now: iso(at) });
    expect(await claim("t1")).toBe("new");
    await fetchArticle(
      { url, source_id: "r", publication: "River News", discovered_from: url, run_id: "t1" },
      fetchDeps,
    );
    at += 2 * H;
    expect((await Promise.all([claim("t2"), claim("t3")])).sort()).toEqual(["seen", "updated"]);
    expect(await recheckAt("/twice")).toBeNull();
  });
});
