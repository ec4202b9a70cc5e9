/**
 * Discovery's memory at its caps (issue 14): a 49.6 MB sitemap of 1.1 M entries, served over loopback and
 * read by discoverSource at the default URL cap (50,000), alone and by 4 sources at once as the discover λ
 * runs them, each run in a fresh process so its peak RSS is its own; beside it the parse alone with and
 * without the cap. The worst discoverSource row is the peak infra/memory-sizing.ts sizes the function by
 * (test/bench/discover-memory.test.ts runs those rows); before the URL cap applied while parsing, this
 * sitemap peaked at ~1 GB.
 */
import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { v8HeapFlags } from "../infra/memory-sizing";
import { topology } from "../infra/topology";
import { SOURCE_CONCURRENCY } from "../shared/crawl/discover-run";
import { DEFAULT_DISCOVERY_LIMITS } from "../shared/discover/discover-source";
import { MEMORY_SITEMAP_ENTRIES, memorySitemap } from "./discover-memory-sitemap";

export interface DiscoverMemoryRow {
  what: string;
  urls: number;
  ms: number;
  maxRssMb: number;
  heapAfterMb: number;
  problems: string[];
  /** The discover function's own work at its caps (the rows its size is derived from). */
  sizing?: boolean;
}

/**
 * Asynchronous, so this process's loopback server keeps answering the child. The child runs under the V8
 * heap flags Lambda gives the discover function's size (v8HeapFlags, which the stack sets in NODE_OPTIONS
 * too), as the memory bench runs fetch: under V8's own defaults on this 24 GB machine garbage piled up as
 * the machine's load let it (4 sources: 553 MB recorded, 616 MB in a CI run beside a bench, past the
 * function's 609 MB then; infra/memory-sizing.ts has the figures under the flags).
 */
async function child(args: string[]): Promise<Omit<DiscoverMemoryRow, "what">> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      ...v8HeapFlags(topology.functions.discover.memoryMb),
      "--import",
      "tsx",
      path.join(import.meta.dirname, "discover-memory-child.ts"),
      ...args,
    ],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Omit<DiscoverMemoryRow, "what">;
}

/** `sizingOnly`: the rows the function's size is derived from, not the parse alone. */
export async function benchDiscoverMemory({ sizingOnly = false } = {}): Promise<{
  bytes: number;
  rows: DiscoverMemoryRow[];
}> {
  const body = Buffer.from(memorySitemap(MEMORY_SITEMAP_ENTRIES));
  const server = http.createServer((req, res) => {
    if (req.url?.split("?")[0] === "/sitemap.xml") {
      res.writeHead(200, { "content-type": "application/xml", "content-length": body.length });
      res.end(body);
    } else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cap = DEFAULT_DISCOVERY_LIMITS.maxUrls;
  try {
    const rows: DiscoverMemoryRow[] = [
      {
        what: `discoverSource over HTTP, URL cap ${cap}`,
        sizing: true,
        ...(await child(["discover", `${base}/sitemap.xml`, `${base}/`, String(cap)])),
      },
      {
        what: `${SOURCE_CONCURRENCY} sources at once (as the discover λ runs them), each its own copy, URL cap ${cap}`,
        sizing: true,
        ...(await child([
          "discover",
          `${base}/sitemap.xml`,
          `${base}/`,
          String(cap),
          String(SOURCE_CONCURRENCY),
        ])),
      },
    ];
    if (sizingOnly) return { bytes: body.length, rows };
    rows.push(
      {
        what: `parseSitemap, maxEntries ${cap}`,
        ...(await child(["parse", String(MEMORY_SITEMAP_ENTRIES), String(cap)])),
      },
      {
        what: "parseSitemap, every entry built",
        ...(await child(["parse", String(MEMORY_SITEMAP_ENTRIES), String(MEMORY_SITEMAP_ENTRIES)])),
      },
    );
    return { bytes: body.length, rows };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
