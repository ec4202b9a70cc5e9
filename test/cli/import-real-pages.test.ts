/**
 * `storytrail import` on real news pages: five publishers' pages from the fundus parser tests
 * (../shared/eval), archived with warcio's writer (an independent WARC writer) beside a syndicated copy
 * of one of them on another outlet. The imported articles carry what `storytrail extract` (the CLI,
 * spawned) finds on the same pages, and the copy joins its original's story.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { importFiles } from "../../cli/commands/import";
import { LocalRuntime } from "../../infra/local/runtime";
import { decodeArticleItem } from "../../shared/consumer/article-item";
import { liveStories } from "../support/live-stories";
import { uniquePrefix } from "../support/unique-prefix";
import { type WarcRecordSpec, writeWarc } from "../support/warc-files";

const repo = resolve(import.meta.dirname, "../..");
const FUNDUS = resolve(repo, "../shared/eval/fundus-parser-tests");
const ARCHIVED_AT = "2026-07-01T09:00:00Z";
const PAGES = [
  "at/KleineZeitung_2025_06_30",
  "au/WestAustralian_2024_11_26",
  "ca/FinancialPost_2026_06_06",
  "ca/GlobalNews_2026_05_24",
  "ca/NationalPost_2024_08_28",
];
const COPY_URL = "https://syndication-partner.example/wire/copied-story";

interface Page {
  readonly url: string;
  readonly file: string;
  readonly html: string;
}

function loadPages(): Page[] {
  const truth = JSON.parse(readFileSync(join(FUNDUS, "ground-truth.json"), "utf8")) as Record<
    string,
    { url: string; file: string }
  >;
  return PAGES.map((id) => {
    const t = truth[id];
    if (!t) throw new Error(`no fundus page ${id}`);
    const file = join(FUNDUS, t.file);
    return { url: t.url, file, html: gunzipSync(readFileSync(file)).toString("utf8") };
  });
}

/** What extraction decided, compared field by field with `storytrail extract`'s record. */
function fields(a: {
  headline: string | null;
  body: string;
  authors: readonly string[];
  published_at: string | null;
  language: string | null;
}) {
  return {
    headline: a.headline,
    body: a.body,
    authors: [...a.authors],
    published_at: a.published_at && new Date(a.published_at).toISOString(),
    language: a.language,
  };
}

describe("storytrail import of real news pages", () => {
  let runtime: LocalRuntime;
  let pages: Page[];
  let dir: string;

  beforeAll(async () => {
    pages = loadPages();
    dir = mkdtempSync(join(tmpdir(), "storytrail-import-real-"));
    const specs: WarcRecordSpec[] = [{ type: "warcinfo" }];
    for (const p of pages) specs.push({ type: "response", url: p.url, date: ARCHIVED_AT, body: p.html });
    // Another outlet republishing the first page whole (its rel=canonical names the original's site,
    // which is not its own, so the copy keeps its URL and is an article of its own).
    specs.push({ type: "response", url: COPY_URL, date: ARCHIVED_AT, body: pages[0]?.html ?? "" });
    writeFileSync(join(dir, "news.warc.gz"), await writeWarc(specs, "file-gzip"));
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("importreal"),
      settings: { STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
    });
  });

  afterAll(async () => {
    await runtime?.close();
  });

  it("stores what storytrail extract finds on the same pages, and clusters the syndicated copy", async () => {
    const summary = await importFiles(runtime, [join(dir, "news.warc.gz")], {
      checkpointDir: join(dir, "checkpoints"),
    });
    expect(summary).toMatchObject({ files: 1, articles: pages.length + 1, errors: 0 });

    const list = join(dir, "pages.jsonl");
    writeFileSync(list, pages.map((p) => JSON.stringify({ id: p.url, path: p.file, url: p.url })).join("\n"));
    const cli = spawnSync(
      process.execPath,
      [join(repo, "bin/storytrail.js"), "extract", "--input", list, "--now", ARCHIVED_AT],
      { cwd: repo, encoding: "utf8", timeout: 120_000 },
    );
    expect(cli.status, cli.stderr).toBe(0);
    const extracted = new Map(
      cli.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { id: string } & Parameters<typeof fields>[0])
        .map((r) => [r.id, fields(r)] as const),
    );

    const articles = (await runtime.items("articles")).map(decodeArticleItem);
    for (const p of pages) {
      const stored = articles.find((a) => a.url === p.url || a.url_variants.includes(p.url));
      expect(stored, p.url).toBeDefined();
      expect(fields(stored!), p.url).toEqual(extracted.get(p.url));
      expect(stored!.body.length, p.url).toBeGreaterThan(500);
    }

    // The copy and its original are one story; the other pages are stories of their own.
    const stories = await liveStories(runtime);
    const original = articles.find((a) => a.url_variants.includes(pages[0]!.url))!.url;
    const copy = articles.find((a) => a.url_variants.includes(COPY_URL))!.url;
    const sizes = stories.map((m) => m.length).sort();
    expect(sizes).toEqual([1, 1, 1, 1, 2]);
    expect(stories.some((m) => m.includes(original) && m.includes(copy))).toBe(true);
  });
});
