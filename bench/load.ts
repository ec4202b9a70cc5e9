/**
 * Load: a local run over many loopback hosts (127.0.10.x, one server each, so every host has its own
 * pacing), syndicated stories copied across hosts so dedup has real contention. Measures what must
 * hold at scale: per-host pacing (the smallest gap between two page requests to one host), the
 * accounting (claimed = articles + failed + pending, with the DLQ), the in-process peak RSS, and that
 * the clusters built by concurrent dedup workers equal a serial pass over the same articles: every
 * article's story pointer and every live cluster's members give the serial partition.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { LocalRuntime, type RunCounts } from "../infra/local/runtime";
import { articleStories, indexedFromItem } from "../shared/aws/fingerprint-item";
import { addArticle } from "../shared/dedup/clusterer";
import { MemoryDedupStore } from "../shared/dedup/memory-dedup-store";

export interface LoadOptions {
  readonly endpoints: { dynamodb: string; sqs: string; s3: string };
  readonly prefix: string;
  readonly hosts: number;
  readonly pagesPerHost: number;
  /** STORYTRAIL_MIN_HOST_DELAY_MS for the run. */
  readonly minDelayMs: number;
  /** Concurrent fetch and dedup workers. */
  readonly workers: number;
  readonly log?: (s: string) => void;
}

export interface LoadResult {
  readonly pages: number;
  readonly counts: RunCounts;
  readonly wallSeconds: number;
  /** Smallest gap between two page requests to one host, over all hosts (ms). */
  readonly minGapMs: number;
  /** Per host, when its server saw each page request (ms, performance.now(), in order). */
  readonly hostRequestTimes: readonly (readonly number[])[];
  readonly peakRssMb: number;
  readonly clustersEqualSerial: boolean;
  readonly clusters: number;
  /** Fetch messages received (every delivery), and those put back until their host's slot. */
  readonly fetchReceives: number;
  readonly putBacks: number;
}

/** Stories are copied across hosts: page p of host h carries story (h·7 + p) mod stories, word for
 * word (a syndicated copy; near-copies cluster less predictably, and the property here is that
 * concurrent dedup equals serial dedup, not dedup's recall). */
function page(story: number): string {
  const words = Array.from({ length: 260 }, (_, k) => `s${story}w${(k * 7919 + story * 104_729) % 991}`).join(
    " ",
  );
  return `<!doctype html><html lang="en"><head><title>Story ${story}</title>
<meta property="article:published_time" content="2026-11-30T10:00:00Z"></head>
<body><article><h1>Story ${story}</h1><p>${words}</p></article></body></html>`;
}

async function startHosts(n: number, pagesPerHost: number, stories: number) {
  const arrivals: number[][] = Array.from({ length: n }, () => []);
  const servers = await Promise.all(
    Array.from({ length: n }, (_, h) => {
      const ip = `127.0.10.${h + 1}`;
      const server = http.createServer((req, res) => {
        const path = (req.url ?? "/").split("?")[0] ?? "/";
        const base = `http://${ip}:${(server.address() as AddressInfo).port}`;
        if (path === "/robots.txt")
          return res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
        if (path === "/sitemap.xml") {
          const urls = Array.from({ length: pagesPerHost }, (_, p) => `<url><loc>${base}/a/${p}</loc></url>`);
          return res
            .writeHead(200, { "content-type": "application/xml" })
            .end(
              `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`,
            );
        }
        const m = /^\/a\/(\d+)$/.exec(path);
        if (!m) return res.writeHead(404).end();
        arrivals[h]!.push(performance.now());
        res
          .writeHead(200, { "content-type": "text/html; charset=utf-8" })
          .end(page((h * 7 + Number(m[1])) % stories));
      });
      return new Promise<http.Server>((ok) => server.listen(0, ip, () => ok(server)));
    }),
  );
  const origins = servers.map((s, h) => `http://127.0.10.${h + 1}:${(s.address() as AddressInfo).port}`);
  return {
    origins,
    arrivals,
    close: () => Promise.all(servers.map((s) => new Promise((ok) => s.close(ok)))),
  };
}

/** The partition as sorted member lists, independent of cluster ids. */
function partition(assign: Iterable<readonly [string, string]>): string[] {
  const groups = new Map<string, string[]>();
  for (const [a, c] of assign) groups.set(c, [...(groups.get(c) ?? []), a]);
  return [...groups.values()].map((g) => g.sort().join(",")).sort();
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const log = opts.log ?? (() => {});
  const pages = opts.hosts * opts.pagesPerHost;
  const stories = Math.max(1, Math.floor(pages / 5));
  const site = await startHosts(opts.hosts, opts.pagesPerHost, stories);
  const runtime = await LocalRuntime.start({
    endpoints: opts.endpoints,
    prefix: opts.prefix,
    concurrency: { fetch: opts.workers, dedup: opts.workers },
    settings: {
      STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
      STORYTRAIL_MIN_HOST_DELAY_MS: String(opts.minDelayMs),
      STORYTRAIL_RAW_SAMPLE_RATE: "0",
    },
  });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 250);
  try {
    const t0 = performance.now();
    const sources = site.origins.map((o, h) => ({
      id: `h${h}`,
      publication: `Outlet ${h}`,
      homepage: `${o}/`,
      sitemaps: [`${o}/sitemap.xml`],
    }));
    const runId = `${opts.prefix}load`;
    const discovery = await runtime.discover({ sources: { sources }, run_id: runId });
    log(`  load: enqueued ${discovery.enqueued} of ${pages} pages`);
    let done = 0;
    const drained = await runtime.drain({
      maxMs: 60 * 60_000,
      onBatch: (b) => {
        if (b.fn !== "fetch") return;
        done += b.received;
        // Deliveries, not pages: a page put back or sent again to a later slot comes more than once.
        if (done % 1000 < b.received) log(`  load: ${done} fetch deliveries (${pages} pages)`);
      },
    });
    const wallSeconds = (performance.now() - t0) / 1000;
    const counts = await runtime.runCounts(runId);
    let minGapMs = Number.POSITIVE_INFINITY;
    const hostRequestTimes = site.arrivals.map((times) => [...times].sort((a, b) => a - b));
    for (const sorted of hostRequestTimes) {
      for (let i = 1; i < sorted.length; i++) minGapMs = Math.min(minGapMs, sorted[i]! - sorted[i - 1]!);
    }
    // The serial pass: the same articles with the same fingerprints (as the dedup messages carried
    // them), one after another in memory, in article id order.
    const serial = new MemoryDedupStore();
    const fingerprintItems = await runtime.items("fingerprints");
    const indexed = fingerprintItems.flatMap((f) => indexedFromItem(f) ?? []);
    for (const a of indexed.sort((x, y) => (x.article_id < y.article_id ? -1 : 1))) {
      const { cluster_id: _, similarity: __, ...article } = a;
      await addArticle(serial, article);
    }
    const expected = partition([...serial.assignments()].map((x) => [x.article_id, x.cluster_id] as const));
    // Concurrent: each article's story (its claim through merged_into), and the live clusters' members.
    const clusterItems = await runtime.items("clusters");
    const pointers = partition([...articleStories(fingerprintItems, clusterItems)]);
    const live = new Set(
      clusterItems.filter((c) => c.record_type === "summary" && !c.merged_into).map((c) => c.cluster_id),
    );
    const members = partition(
      clusterItems
        .filter((c) => c.record_type === "member" && live.has(c.cluster_id))
        .map((c) => [String(c.article_id), String(c.cluster_id)] as const),
    );
    const same = (x: string[]) => JSON.stringify(x) === JSON.stringify(expected);
    return {
      pages,
      counts,
      wallSeconds,
      minGapMs,
      hostRequestTimes,
      peakRssMb: Math.max(peakRss, process.memoryUsage().rss) / 2 ** 20,
      clustersEqualSerial: same(pointers) && same(members),
      clusters: expected.length,
      fetchReceives: drained.messages.fetch ?? 0,
      putBacks: drained.putBack.fetch ?? 0,
    };
  } finally {
    clearInterval(sampler);
    await runtime.close();
    await site.close();
  }
}
