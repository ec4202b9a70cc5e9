/**
 * `storytrail import` end to end on the local runtime: the demo site's pages, archived into a WARC with
 * warcio's writer, become the same articles and story clusters as crawling the site; importing again
 * changes nothing; an interrupted import resumes from its checkpoint.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { importFiles } from "../../cli/commands/import";
import { type DemoSite, startDemoSite } from "../../infra/local/demo-site";
import { LocalRuntime } from "../../infra/local/runtime";
import { skippedTotal } from "../../shared/backfill/import-summary";
import { decodeArticleItem } from "../../shared/consumer/article-item";
import { liveStories } from "../support/live-stories";
import { uniquePrefix } from "../support/unique-prefix";
import { type WarcRecordSpec, writeWarc } from "../support/warc-files";

const ARCHIVED_AT = "2026-12-01T09:00:00Z";
/** The crawl runs on the archive's day (the functions' clock pinned), as the archive's crawler did. */
const SETTINGS = {
  STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
  STORYTRAIL_MIN_HOST_DELAY_MS: "0",
  STORYTRAIL_NOW: ARCHIVED_AT,
};

async function start(label: string): Promise<LocalRuntime> {
  return LocalRuntime.start({
    endpoints: inject("endpoints"),
    prefix: uniquePrefix(label),
    settings: SETTINGS,
  });
}

/** What extraction decided, per URL (not when or how the page was collected). */
async function extracted(runtime: LocalRuntime) {
  return (await runtime.items("articles"))
    .map(decodeArticleItem)
    .map((a) => ({
      url: a.url,
      source_id: a.source_id,
      publication: a.publication,
      headline: a.headline,
      body: a.body,
      published_at: a.published_at && new Date(a.published_at).toISOString(),
      language: a.language,
      word_count: a.word_count,
    }))
    .sort((a, b) => a.url.localeCompare(b.url));
}

describe("storytrail import", () => {
  let site: DemoSite;
  let crawled: LocalRuntime;
  let warc: string;
  let dir: string;
  const runtimes: LocalRuntime[] = [];

  beforeAll(async () => {
    site = await startDemoSite({ at: new Date(ARCHIVED_AT) });
    crawled = await start("crawl");
    await crawled.discover({ sources: site.sources, run_id: "run-1" });
    await crawled.drain();
    // The archive: every page the crawl stored, fetched again and written as response records,
    // between the records a real crawl archive also holds.
    const specs: WarcRecordSpec[] = [{ type: "warcinfo" }];
    for (const url of [...site.expected.wire, ...site.expected.unrelated]) {
      const res = await fetch(url);
      specs.push({ type: "request", url, date: ARCHIVED_AT });
      specs.push({
        type: "response",
        url,
        date: ARCHIVED_AT,
        body: await res.text(),
        contentType: res.headers.get("content-type") ?? "",
      });
      specs.push({ type: "metadata", url, date: ARCHIVED_AT });
    }
    const first = site.expected.wire[0] ?? "";
    specs.push({ type: "revisit", url: first, date: ARCHIVED_AT });
    specs.push({
      type: "response",
      url: `${first}.png`,
      date: ARCHIVED_AT,
      body: "PNG",
      contentType: "image/png",
    });
    dir = mkdtempSync(join(tmpdir(), "storytrail-import-"));
    warc = join(dir, "demo.warc.gz");
    writeFileSync(warc, await writeWarc(specs, "record-gzip"));
  });

  afterAll(async () => {
    for (const r of [crawled, ...runtimes]) await r?.close();
    await site?.close();
  });

  it("turns the archived pages into the crawl's articles and stories, with counts that add up", async () => {
    const runtime = await start("import");
    runtimes.push(runtime);
    const summary = await importFiles(runtime, [warc], {
      sources: site.sources,
      checkpointDir: join(dir, "cp-a"),
      settings: SETTINGS,
    });
    expect(summary).toMatchObject({ files: 1, articles: 4, errors: 0 });
    expect(summary.skipped).toEqual({ warcinfo: 1, request: 4, metadata: 4, revisit: 1, not_html: 1 });
    expect(summary.records).toBe(summary.articles + skippedTotal(summary) + summary.errors);
    expect(await extracted(runtime)).toEqual(await extracted(crawled));
    expect(await liveStories(runtime)).toEqual(await liveStories(crawled));
    expect((await liveStories(runtime)).map((s) => s.length).sort()).toEqual([1, 3]);
    const articles = (await runtime.items("articles")).map(decodeArticleItem);
    expect(new Set(articles.map((a) => a.collected_at))).toEqual(new Set(["2026-12-01T09:00:00.000Z"]));

    // Again: the checkpoint says the file is done, so nothing is read and nothing changes.
    const before = { articles: await runtime.items("articles"), clusters: await runtime.items("clusters") };
    const again = await importFiles(runtime, [warc], {
      sources: site.sources,
      checkpointDir: join(dir, "cp-a"),
      settings: SETTINGS,
    });
    expect(again).toMatchObject({ files: 0, files_already_imported: 1, records: 0 });
    expect(await runtime.items("articles")).toEqual(before.articles);
    expect(await runtime.items("clusters")).toEqual(before.clusters);

    // Read again from the start on purpose: the same articles and stories.
    await importFiles(runtime, [warc], {
      sources: site.sources,
      checkpointDir: join(dir, "cp-a"),
      settings: SETTINGS,
      restart: true,
    });
    expect(await extracted(runtime)).toEqual(await extracted(crawled));
    expect(await liveStories(runtime)).toEqual(await liveStories(crawled));
  });

  it("resumes an interrupted import at its checkpoint and ends with the same counts and stories", async () => {
    const runtime = await start("resume");
    runtimes.push(runtime);
    let seen = 0;
    const opts = {
      sources: site.sources,
      checkpointDir: join(dir, "cp-b"),
      settings: SETTINGS,
      checkpointEvery: 4,
    };
    const partial = await importFiles(runtime, [warc], {
      ...opts,
      onProgress: () => {
        seen++;
      },
      shouldStop: () => seen >= 6,
    });
    expect(partial.records).toBe(6);
    const rest = await importFiles(runtime, [warc], opts);
    expect(rest).toMatchObject({ records: 15, articles: 4, errors: 0 });
    expect(rest.records).toBe(rest.articles + skippedTotal(rest) + rest.errors);
    expect(await liveStories(runtime)).toEqual(await liveStories(crawled));
  });
});
