/**
 * A publisher's template change, end to end on the local runtime: two publishers are crawled for three
 * days, then one of them moves its article text into a client-side JSON blob (only the lede stays in
 * the markup) and drops its date markup. The quality run must raise findings for exactly that
 * publisher, with before/after figures, sample URLs and raw-sample keys that exist; an unchanged day
 * raises none.
 */
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import type { QualityReport } from "../../../lambdas/quality";
import { SourcesTable } from "../../../shared/aws/sources-table";
import { renderQualityTable } from "../../../shared/quality/quality-table";
import { type NewsServer, SITEMAP_NS, send, startNewsServer } from "../../support/news-server";
import { uniquePrefix } from "../../support/unique-prefix";

const PER_DAY = 10;
const DAYS = ["2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"];

/** Deterministic, distinct prose per page: word i of page `seed` (no two pages near-duplicates). */
function words(seed: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `w${(seed * 7919 + i * 104_729) % 100_003}`).join(" ");
}

function page(seed: number, day: string, changed: boolean): string {
  const title = `Report number ${seed}`;
  if (!changed) {
    return `<!doctype html><html lang="en"><head><title>${title}</title>
<meta property="article:published_time" content="${day}T08:00:00Z"></head>
<body><nav><a href="/">Home</a></nav><article><h1>${title}</h1>
${[0, 1, 2, 3].map((p) => `<p>${words(seed * 10 + p, 100)}.</p>`).join("\n")}
</article><footer>About us</footer></body></html>`;
  }
  // The new template: the lede in the markup, the rest rendered by script from a JSON blob; no date.
  return `<!doctype html><html lang="en"><head><title>${title}</title></head>
<body><nav><a href="/">Home</a></nav><main><h1>${title}</h1><p>${words(seed * 10, 80)}.</p>
<div id="app"></div><script type="application/json" id="state">${JSON.stringify({ body: words(seed * 10 + 1, 300) })}</script>
</main><footer>About us</footer></body></html>`;
}

describe("quality run: a template change at one publisher", () => {
  let steady: NewsServer;
  let shifty: NewsServer;
  let runtime: LocalRuntime;
  let day = 0;
  let shiftyChanged = false;

  const serve = (site: NewsServer, offset: number, changed: () => boolean) => {
    site.route("/robots.txt", send("text/plain", "User-agent: *\nAllow: /\n"));
    site.route("/sitemap.xml", (_req, res) => {
      const urls = Array.from({ length: PER_DAY }, (_, i) => site.url(`/d${day}/story-${i}`));
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(
        `<?xml version="1.0"?><urlset ${SITEMAP_NS}>${urls.map((u) => `<url><loc>${u}</loc></url>`).join("")}</urlset>`,
      );
    });
    for (let d = 0; d < DAYS.length; d++)
      for (let i = 0; i < PER_DAY; i++)
        site.route(`/d${d}/story-${i}`, (_req, res) => {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(page(offset + d * 100 + i, DAYS[d]!, changed()));
        });
  };

  beforeAll(async () => {
    // Two hosts, two addresses: pacing keys on the host, not the port (one address paced all 20 pages
    // of a day a second apart).
    steady = await startNewsServer({}, "127.0.0.1");
    shifty = await startNewsServer({}, "127.0.0.2");
    serve(steady, 1_000, () => false);
    serve(shifty, 5_000, () => shiftyChanged);
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("qual"),
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: "0",
        STORYTRAIL_RAW_SAMPLE_RATE: "1",
      },
    });
  });

  afterAll(async () => {
    await runtime?.close();
    await steady?.close();
    await shifty?.close();
  });

  /** Crawls the day's pages, then files them under that day (the crawl itself runs today). */
  async function crawlDay(d: number): Promise<QualityReport> {
    day = d;
    const sources = [
      {
        id: "steady",
        publication: "Steady Post",
        homepage: steady.url("/"),
        sitemaps: [steady.url("/sitemap.xml")],
      },
      {
        id: "shifty",
        publication: "Shifty Times",
        homepage: shifty.url("/"),
        sitemaps: [shifty.url("/sitemap.xml")],
      },
    ];
    await runtime.discover({ sources: { sources }, run_id: `day-${d}` });
    await runtime.drain();
    const collectedAt = `${DAYS[d]}T12:00:00.000Z`;
    for (const item of await runtime.items("articles")) {
      if (String(item.url).includes(`/d${d}/`))
        await runtime.clients.doc.send(
          new UpdateCommand({
            TableName: runtime.resources.tables.articles,
            Key: { article_id: item.article_id },
            UpdateExpression: "SET collected_at = :at, collected_day = :day",
            ExpressionAttributeValues: { ":at": collectedAt, ":day": DAYS[d] },
          }),
        );
    }
    return (await runtime.invoke("quality", { at: `${DAYS[d]}T23:00:00.000Z` })) as QualityReport;
  }

  it("raises no finding on unchanged days, then exactly the changed publisher's, with its evidence", async () => {
    const before = [await crawlDay(0), await crawlDay(1), await crawlDay(2)];
    expect(before.map((r) => r.findings)).toEqual([[], [], []]);
    expect(before[2]!.sources.shifty).toMatchObject({ articles: PER_DAY, valid_date_share: 1 });

    shiftyChanged = true;
    const after = await crawlDay(3);
    expect(after.sources.steady).toMatchObject({ articles: PER_DAY, valid_date_share: 1 });
    expect(new Set(after.findings.map((f) => f.source_id))).toEqual(new Set(["shifty"]));
    expect(after.findings.map((f) => f.metric).sort()).toEqual(["median_words", "valid_date_share"]);
    const words = after.findings.find((f) => f.metric === "median_words")!;
    expect(words.baseline).toBeGreaterThan(350);
    expect(words.today).toBeLessThan(120);
    for (const f of after.findings) {
      expect(f.day).toBe(DAYS[3]);
      expect(f.sample_urls).toHaveLength(5);
      for (const u of f.sample_urls) expect(u).toMatch(new RegExp(`^${shifty.base}/d3/story-`));
      expect(f.raw_keys).toHaveLength(5);
      for (const key of f.raw_keys) {
        const object = await runtime.clients.s3.send(
          new GetObjectCommand({ Bucket: runtime.resources.buckets.raw, Key: key }),
        );
        expect(object.ContentLength).toBeGreaterThan(0);
      }
    }
    // Kept on the source's item for `storytrail quality`, bounded.
    const sources = new SourcesTable(runtime.clients.doc, runtime.resources.tables.sources);
    expect(await sources.qualityFindings("shifty")).toEqual(after.findings);
    expect(await sources.qualityFindings("steady")).toEqual([]);
    // What `storytrail quality` prints: the changed publisher flagged with its evidence, the other ok.
    const all = [];
    for await (const s of sources.qualityOfAll()) all.push(s);
    const table = renderQualityTable(all.sort((a, b) => a.source_id.localeCompare(b.source_id)));
    const rows = table.split("\n");
    expect(rows.find((r) => r.startsWith("shifty"))).toMatch(/DROP median_words, DROP valid_date_share$/);
    expect(rows.find((r) => r.startsWith("steady"))).toMatch(/ok$/);
    for (const url of after.findings[0]!.sample_urls) expect(table).toContain(`sample ${url}`);
  });
});
