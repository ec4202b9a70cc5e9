/**
 * The number of custom metrics the stack publishes does not grow with the source count: a local run
 * (dispatch → discover → fetch → dedup, then the quality λ) with 10 and with 200 sources prints EMF
 * documents whose metric names × dimension values are the same set, and all of them are among
 * CUSTOM_METRICS. The sources are alike (one story each, on ten loopback hosts), so both runs see the
 * same outcomes; only their number differs.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { CUSTOM_METRICS } from "../../infra/custom-metrics";
import { LocalRuntime } from "../../infra/local/runtime";
import { SOURCE_PROPERTY } from "../../shared/config/metrics";
import { type NewsServer, send, startNewsServer, urlset } from "../support/news-server";
import { uniquePrefix } from "../support/unique-prefix";

/** The run's fixed instants: the tick, and the day its articles are filed under for the quality λ. */
const TICK = "2026-12-02T05:00:00.000Z";
const DAY = "2026-12-02";
/** Hosts the sources share, each on its own loopback address: pacing keys on the host, not the port, and
 * discovery gives a host's pages slots at least a second apart, so ten sites on one address took 200 s
 * to fetch 200 pages (a page a second); on twenty addresses they take about ten. */
const HOSTS = 20;
// Each story's own words: alike pages would all cluster into one story, which is not what this measures.
const body = (n: number) =>
  Array.from({ length: 300 }, (_, i) => `w${(i * 7919 + n * 104_729) % 1_000_003}`).join(" ");
const page = (n: number) => `<!doctype html><html lang="en"><head><title>Story ${n}</title>
<meta property="article:published_time" content="${DAY}T04:00:00Z"></head>
<body><article><h1>Story ${n}</h1><p>${body(n)}</p></article></body></html>`;

interface Emf {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
  [key: string]: unknown;
}

/** Each metric × dimension values a set of EMF documents publishes, as "namespace name dim=value,…". */
function publishedMetrics(docs: readonly Emf[]): Set<string> {
  const out = new Set<string>();
  for (const d of docs)
    for (const set of d._aws.CloudWatchMetrics)
      for (const dims of set.Dimensions)
        for (const m of set.Metrics)
          out.add(`${set.Namespace} ${m.Name} ${dims.map((k) => `${k}=${String(d[k])}`).join(",")}`);
  return out;
}

describe("custom metrics at 10 and at 200 sources", () => {
  const sites: NewsServer[] = [];
  const runtimes: LocalRuntime[] = [];
  const siteOf = (i: number) => sites[i % HOSTS]!;

  beforeAll(async () => {
    for (let h = 0; h < HOSTS; h++)
      sites.push(
        await startNewsServer(
          { "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") },
          `127.0.0.${h + 1}`,
        ),
      );
    for (let i = 0; i < 200; i++) {
      const site = siteOf(i);
      site.route(`/s${i}/sitemap.xml`, send("application/xml", urlset([site.url(`/s${i}/story`)])));
      site.route(`/s${i}/story`, send("text/html; charset=utf-8", page(i)));
    }
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    for (const r of runtimes) await r.close();
    for (const site of sites) await site.close();
  });

  /** A whole local run over `count` sources; the EMF documents its handlers print. */
  async function run(count: number): Promise<Emf[]> {
    const runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix(`cm${count}`),
      settings: { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true", STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
      concurrency: { discover: 4, fetch: 6, dedup: 4 },
    });
    runtimes.push(runtime);
    const sources = Array.from({ length: count }, (_, i) => ({
      id: `s${i}`,
      publication: `Publisher ${i}`,
      homepage: siteOf(i).url("/"),
      sitemaps: [siteOf(i).url(`/s${i}/sitemap.xml`)],
      min_delay_ms: 0,
    }));
    const docs: Emf[] = [];
    // Powertools reads this when a handler is made; the suite turns metrics off everywhere else.
    vi.stubEnv("POWERTOOLS_METRICS_DISABLED", "false");
    const write = process.stdout.write.bind(process.stdout);
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk, ...rest) => {
      for (const line of String(chunk).split("\n"))
        if (line.includes('"_aws":')) {
          docs.push(JSON.parse(line) as Emf);
          return true;
        }
      return write(chunk, ...(rest as []));
    });
    try {
      await runtime.pushSources(sources);
      const discovery = await runtime.discoverDue({ scheduled_time: TICK });
      expect(discovery.dispatch.dispatched).toBe(count);
      await runtime.drain();
      for (const item of await runtime.items("articles"))
        await runtime.clients.doc.send(
          new UpdateCommand({
            TableName: runtime.resources.tables.articles,
            Key: { article_id: item.article_id },
            UpdateExpression: "SET collected_at = :at, collected_day = :day",
            ExpressionAttributeValues: { ":at": `${DAY}T12:00:00.000Z`, ":day": DAY },
          }),
        );
      await runtime.invoke("quality", { at: `${DAY}T23:00:00.000Z` });
      expect(await runtime.runCounts(discovery.run_id)).toMatchObject({
        claimed: count,
        articles: count,
      });
    } finally {
      spy.mockRestore();
      vi.unstubAllEnvs();
    }
    return docs;
  }

  it("publishes the same metrics, all declared, and names sources only as a property", async () => {
    const small = await run(10);
    const large = await run(200);
    const [few, many] = [publishedMetrics(small), publishedMetrics(large)];
    console.log(`custom metrics published: ${few.size} at 10 sources, ${many.size} at 200`);
    expect([...many].sort()).toEqual([...few].sort());
    expect(few.size).toBeGreaterThan(10);
    const declared = new Set(
      CUSTOM_METRICS.map((m) => `${m.namespace} ${m.name} ${m.dimensions.join(",")} ${m.service}`),
    );
    for (const metric of many) {
      const [namespace, name, dims] = metric.split(" ") as [string, string, string];
      const service = /service=([^,]+)/.exec(dims)?.[1];
      const keys = dims
        .split(",")
        .map((kv) => kv.split("=")[0])
        .join(",");
      expect(declared, metric).toContain(`${namespace} ${name} ${keys} ${service}`);
    }
    expect(many.size).toBeLessThanOrEqual(CUSTOM_METRICS.reduce((n, m) => n + m.count, 0));
    // Per-publisher figures are there, for Logs Insights: every source named, as a property only.
    const named = new Set(large.map((d) => d[SOURCE_PROPERTY]).filter((v) => v !== undefined));
    expect(named.size).toBe(200);
    for (const d of large) expect(JSON.stringify(d._aws)).not.toContain(SOURCE_PROPERTY);
  }, 600_000);
});
