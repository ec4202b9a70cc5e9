/**
 * One politeness rule for every request to a host: a local run (discover λ, two fetch workers, the
 * Hosts table on DynamoDB Local) against a loopback site that records when each request arrives —
 * robots.txt (discovery's and each fetch worker's), the sitemap, pages and a redirect hop. Every two
 * requests must be the minimum delay apart, counted from the end of one to the start of the next.
 * Before, robots.txt and redirect hops went out unpaced: the sitemap followed discovery's robots.txt
 * within a few ms, and a page its fetch worker's robots.txt.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { HostPacer } from "../../../shared/fetch/host-pacer";
import { HttpClient } from "../../../shared/fetch/http";
import { uniquePrefix } from "../../support/unique-prefix";

const DELAY_MS = 60;
const words = Array.from({ length: 420 }, (_, i) => `w${i}`).join(" ");
const page = (title: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta property="article:published_time" content="2026-11-30T10:00:00Z"></head><body><article><h1>${title}</h1><p>${words}.</p></article></body></html>`;

describe("per-host pacing of every request", () => {
  const arrivals: { path: string; at: number; end: number }[] = [];
  let server: http.Server;
  let base = "";
  let runtime: LocalRuntime;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const path = req.url ?? "/";
      const hit = { path, at: Date.now(), end: 0 };
      arrivals.push(hit);
      res.on("finish", () => {
        hit.end = Date.now();
      });
      if (path === "/robots.txt")
        return res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
      if (path === "/sitemap.xml") {
        const locs = ["/a/1", "/a/2", "/moved", "/a/3"].map((p) => `<url><loc>${base}${p}</loc></url>`);
        return res
          .writeHead(200, { "content-type": "application/xml" })
          .end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.join("")}</urlset>`);
      }
      if (path === "/moved") return res.writeHead(301, { location: `${base}/a/4` }).end();
      if (path.startsWith("/a/"))
        return res.writeHead(200, { "content-type": "text/html" }).end(page(`Story ${path}`));
      res.writeHead(404).end();
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("pace-all"),
      concurrency: { fetch: 2, dedup: 0 },
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: String(DELAY_MS),
        STORYTRAIL_RAW_SAMPLE_RATE: "0",
      },
    });
  });

  afterAll(async () => {
    await runtime?.close();
    await new Promise((ok) => server?.close(ok));
  });

  it("robots.txt, the sitemap, pages and a redirect hop to one host are each the minimum delay apart", async () => {
    const sources = {
      sources: [
        {
          id: "p",
          publication: "Paced",
          homepage: `${base}/`,
          sitemaps: [`${base}/sitemap.xml`],
          min_delay_ms: DELAY_MS,
        },
      ],
    };
    await runtime.discover({ sources, run_id: "r1" });
    // Fetch only (no dedup workers): the run ends with the fourth page.
    const fetched = new AbortController();
    let pages = 0;
    await runtime.drain({
      signal: fetched.signal,
      maxMs: 60_000,
      onBatch: (b) => {
        pages += b.received - b.failed;
        if (pages >= 4) fetched.abort();
      },
    });
    const counts = await runtime.runCounts("r1");
    expect(counts).toMatchObject({ claimed: 4, articles: 4, failed: 0 });

    const paths = arrivals.map((a) => a.path);
    // Discovery's robots.txt and each fetch worker's own (one per container), the sitemap, 4 pages, 1 hop.
    expect(paths.filter((p) => p === "/robots.txt").length).toBeGreaterThanOrEqual(2);
    expect(paths).toEqual(expect.arrayContaining(["/sitemap.xml", "/a/1", "/a/2", "/a/3", "/moved", "/a/4"]));
    const sorted = [...arrivals].sort((x, y) => x.at - y.at);
    const gaps = sorted.slice(1).map((a, i) => ({
      between: `${sorted[i]!.path} → ${a.path}`,
      // From the end of the previous response to this arrival; 1 ms for Date.now's rounding.
      ms: a.at - sorted[i]!.end + 1,
    }));
    const short = gaps.filter((g) => g.ms < DELAY_MS);
    expect(short, JSON.stringify(gaps)).toEqual([]);
  });
});

describe("HostPacer: the gap counts from the end of a request", () => {
  it("a request that left late pushes the next one back to a full interval after its end", async () => {
    let t = 0;
    const sleep = async (ms: number) => {
      t += ms;
    };
    const pacer = new HostPacer({ minDelayMs: 200, now: () => t, sleep });
    await pacer.wait("h");
    t += 150; // the request left 150 ms after its slot (a busy event loop, a read in between) …
    t += 20; // … and took 20 ms
    await pacer.done("h");
    const endOfFirst = t;
    await pacer.wait("h");
    expect(t - endOfFirst).toBe(200); // slot to slot it would have been 30 ms after this end
  });
});

describe("HttpClient with a pacer", () => {
  it("a pacer that fails (its table throttled) throws out of fetch instead of passing for the publisher's network error", async () => {
    const server = http.createServer((req, res) =>
      req.url === "/moved"
        ? res.writeHead(302, { location: "/" }).end()
        : res.writeHead(200, { "content-type": "text/html" }).end("<p>x</p>"),
    );
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const client = new HttpClient({ userAgent: "storytrail-test/1.0", allowPrivateAddresses: true });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const throttled = Object.assign(new Error("Rate exceeded"), {
        name: "ProvisionedThroughputExceededException",
        $metadata: {},
      });
      const failing = (where: "before" | "after") => ({
        before: async () => {
          if (where === "before") throw throttled;
          return true;
        },
        after: async () => {
          if (where === "after") throw throttled;
        },
      });
      await expect(client.fetch(url, { accept: "html", pace: failing("before") })).rejects.toBe(throttled);
      await expect(client.fetch(url, { accept: "html", pace: failing("after") })).rejects.toBe(throttled);
      // … also when it fails after a redirect hop, mid-fetch.
      await expect(client.fetch(`${url}moved`, { accept: "html", pace: failing("after") })).rejects.toBe(
        throttled,
      );
      // A wait cut short (the caller's budget) sends nothing and says so.
      const res = await client.fetch(url, {
        accept: "html",
        pace: { before: async () => false, after: async () => {} },
      });
      expect(res).toMatchObject({ ok: false, reason: "timeout" });
    } finally {
      await client.close();
      await new Promise((ok) => server.close(ok));
    }
  });
});
