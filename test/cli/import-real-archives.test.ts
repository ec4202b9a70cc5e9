/**
 * `storytrail import` of web archives as crawlers write them, around real news pages (the fundus parser
 * tests in ../shared/eval), written with warcio's writer: a Heritrix-style file (DNS lookups, requests,
 * metadata, a revisit pointing at its stored payload, a resource), a Common Crawl record cut by the
 * crawler (`WARC-Truncated: length`), and a CC-NEWS-style file cut short inside its last record.
 * Nothing there is an error; every record is counted; the cut pages are kept and flagged. And an old
 * CCBot file whose heads end their lines with LF alone, imported by the CLI (a child process): its page
 * is an article, and a record beside it that cannot be read is counted `malformed`, not `truncated`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { importFiles } from "../../cli/commands/import";
import { LocalRuntime } from "../../infra/local/runtime";
import { skippedTotal } from "../../shared/backfill/import-summary";
import { decodeArticleItem } from "../../shared/consumer/article-item";
import { uniquePrefix } from "../support/unique-prefix";
import { serializeRecords, type WarcRecordSpec, writeLfOnlyWarc, writeWarc } from "../support/warc-files";

const FUNDUS = resolve(import.meta.dirname, "../../../shared/eval/fundus-parser-tests");
const ARCHIVED_AT = "2026-07-01T09:00:00Z";
const PAGES = ["au/WestAustralian_2024_11_26", "ca/FinancialPost_2026_06_06", "ca/GlobalNews_2026_05_24"];

function loadPages(): { url: string; html: string }[] {
  const truth = JSON.parse(readFileSync(join(FUNDUS, "ground-truth.json"), "utf8")) as Record<
    string,
    { url: string; file: string }
  >;
  return PAGES.map((id) => {
    const t = truth[id]!;
    return { url: t.url, html: gunzipSync(readFileSync(join(FUNDUS, t.file))).toString("utf8") };
  });
}

/** The page cut where a crawler's length cap would cut it: past its article, before its end. */
const cutHtml = (html: string) => html.slice(0, Math.floor(html.length * 0.8));

describe("storytrail import of archives as crawlers write them", () => {
  let runtime: LocalRuntime;
  let dir: string;
  let pages: { url: string; html: string }[];

  beforeAll(async () => {
    pages = loadPages();
    dir = mkdtempSync(join(tmpdir(), "storytrail-import-archives-"));
    const [heritrixPage, ccPage, cutPage] = pages as [
      (typeof pages)[0],
      (typeof pages)[0],
      (typeof pages)[0],
    ];
    const heritrix: WarcRecordSpec[] = [
      { type: "warcinfo" },
      { type: "dns", host: new URL(heritrixPage.url).hostname, date: ARCHIVED_AT },
      { type: "request", url: heritrixPage.url, date: ARCHIVED_AT },
      { type: "response", url: heritrixPage.url, date: ARCHIVED_AT, body: heritrixPage.html },
      { type: "metadata", url: heritrixPage.url, date: ARCHIVED_AT },
      { type: "dns", host: "static.example", date: ARCHIVED_AT },
      { type: "resource", url: `${heritrixPage.url}/logo.png`, date: ARCHIVED_AT },
      { type: "revisit", url: heritrixPage.url, date: ARCHIVED_AT, refersTo: "<urn:uuid:stored-payload>" },
      { type: "conversion", url: heritrixPage.url, date: ARCHIVED_AT },
      { type: "continuation", url: heritrixPage.url, date: ARCHIVED_AT },
    ];
    writeFileSync(join(dir, "heritrix.warc"), await writeWarc(heritrix, "plain"));
    const commonCrawl: WarcRecordSpec[] = [
      { type: "warcinfo" },
      { type: "request", url: ccPage.url, date: ARCHIVED_AT },
      {
        type: "response",
        url: ccPage.url,
        date: ARCHIVED_AT,
        body: cutHtml(ccPage.html),
        warcHeaders: { "WARC-Truncated": "length" },
      },
    ];
    writeFileSync(join(dir, "common-crawl.warc.gz"), await writeWarc(commonCrawl, "record-gzip"));
    // CC-NEWS: one gzip member per record, the file cut four fifths into its last member.
    const members = await serializeRecords(
      [{ type: "warcinfo" }, { type: "response", url: cutPage.url, date: ARCHIVED_AT, body: cutPage.html }],
      true,
    );
    const last = members[1]!;
    writeFileSync(
      join(dir, "cc-news-cut.warc.gz"),
      Buffer.concat([members[0]!, last.subarray(0, Math.floor(last.length * 0.8))]),
    );
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("importarch"),
      settings: { STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
    });
  });

  afterAll(async () => {
    await runtime?.close();
  });

  it("counts every record under a type or reason, with no errors, and keeps the cut pages flagged", async () => {
    const files = ["heritrix.warc", "common-crawl.warc.gz", "cc-news-cut.warc.gz"].map((f) => join(dir, f));
    const summary = await importFiles(runtime, files, { checkpointDir: join(dir, "checkpoints") });
    expect(summary).toMatchObject({
      files: 3,
      records: 10 + 3 + 2,
      articles: 3,
      truncated_articles: 2,
      errors: 0,
      problems: [],
      skipped: {
        warcinfo: 3,
        dns: 2,
        request: 2,
        metadata: 1,
        resource: 1,
        revisit: 1,
        conversion: 1,
        continuation: 1,
      },
    });
    expect(summary.records).toBe(summary.articles + skippedTotal(summary) + summary.errors);

    const articles = (await runtime.items("articles")).map(decodeArticleItem);
    const stored = (url: string) => articles.find((a) => a.url === url || a.url_variants.includes(url));
    const [whole, crawlerCut, fileCut] = pages.map((p) => stored(p.url));
    expect(whole?.truncated ?? []).not.toContain("body");
    for (const a of [crawlerCut, fileCut]) {
      expect(a?.truncated).toContain("body");
      expect(a?.word_count).toBeGreaterThan(150);
    }
  });
});

describe("storytrail import of a WARC with LF-only heads", () => {
  const repo = resolve(import.meta.dirname, "../..");
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), ...args], {
      cwd: repo,
      encoding: "utf8",
      timeout: 120_000,
    });

  it("imports its page as an article and counts a record it cannot read as malformed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "storytrail-import-lf-"));
    const [page] = loadPages().slice(2);
    const lf = await writeLfOnlyWarc([
      { type: "warcinfo" },
      { type: "response", url: page!.url, date: ARCHIVED_AT, body: page!.html, contentType: "text/html" },
    ]);
    // A response whose HTTP head has no empty line before its block ends: it cannot be read.
    const http = "HTTP/1.1 200 OK\nContent-Type: text/html\n<html><body>no empty line</body></html>";
    const broken = `WARC/1.0\nWARC-Type: response\nWARC-Date: ${ARCHIVED_AT}\nWARC-Target-URI: https://broken.example/x\nContent-Length: ${http.length}\n\n${http}\n\n`;
    const warc = join(dir, "ccbot.warc");
    writeFileSync(warc, Buffer.concat([lf, Buffer.from(broken)]));
    const run = join(dir, "run");
    try {
      const imported = cli("import", "--warc", warc, "--data-dir", run, "--json");
      expect(imported.status, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toMatchObject({
        records: 3,
        articles: 1,
        skipped: { warcinfo: 1, malformed: 1 },
        errors: 0,
      });
      const exported = cli("export", "--data-dir", run, "--format", "jsonl", "--out", join(dir, "out"));
      expect(exported.status, exported.stderr).toBe(0);
      const articles = readFileSync(join(dir, "out", "articles.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { url_variants: string[]; word_count: number });
      expect(articles).toHaveLength(1);
      expect(articles[0]?.url_variants).toContain(page!.url);
      expect(articles[0]?.word_count).toBeGreaterThan(150);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
