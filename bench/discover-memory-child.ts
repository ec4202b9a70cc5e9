/**
 * One discovery measurement in a fresh process, so its peak RSS is its own (bench/discover-memory.ts).
 *
 *   npx tsx bench/discover-memory-child.ts discover SITEMAP_URL HOMEPAGE MAX_URLS [SOURCES_AT_ONCE]
 *   npx tsx bench/discover-memory-child.ts parse ENTRIES MAX_ENTRIES      (no HTTP: text built in-process)
 * → one JSON line {urls, ms, maxRssMb, heapAfterMb}
 */
import { discoverSource } from "../shared/discover/discover-source";
import { RobotsCache } from "../shared/discover/robots";
import { parseSitemap } from "../shared/discover/sitemap";
import { HostPacer } from "../shared/fetch/host-pacer";
import { HttpClient } from "../shared/fetch/http";
import { memorySitemap } from "./discover-memory-sitemap";

const [mode, a, b, c, d] = process.argv.slice(2);
const started = performance.now();
let urls = 0;
let problems: string[] = [];
if (mode === "discover") {
  const http = new HttpClient({ userAgent: "storytrail-bench/0.1", allowPrivateAddresses: true });
  const robots = new RobotsCache(http, "storytrail-bench/0.1");
  // `d` sources at once, as the discover λ runs them (SOURCE_CONCURRENCY), each with its own copy.
  const results = await Promise.all(
    Array.from({ length: Number(d ?? 1) }, (_, i) =>
      discoverSource(
        {
          id: `bench${i}`,
          publication: "Bench",
          homepage: b!,
          feeds: [],
          sitemaps: [`${a!}?copy=${i}`],
          allowed_hosts: ["n.ws"],
        },
        {
          http,
          robots,
          since: null,
          now: new Date(),
          pacer: new HostPacer({ minDelayMs: 0 }),
          limits: { maxUrls: Number(c) },
        },
      ),
    ),
  );
  await http.close();
  urls = results.reduce((n, r) => n + r.urls.length, 0);
  problems = results.flatMap((r) => r.problems.map((p) => `${p.reason}: ${p.detail}`));
} else {
  const text = memorySitemap(Number(a));
  const sm = parseSitemap(text, { maxEntries: Number(b) });
  urls = sm.kind === "urlset" ? sm.urls.length : 0;
}
const ms = performance.now() - started;
console.log(
  JSON.stringify({
    urls,
    ms: Math.round(ms),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    heapAfterMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    problems,
  }),
);
