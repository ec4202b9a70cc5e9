/**
 * Peak memory of one extraction at the fetch function's caps: for each hostile page shape, filled to the
 * fetch byte cap (5 MiB), a fresh Node process builds the fetch handler and runs the extractor, bundled
 * as Lambda bundles them, under the V8 heap flags Lambda gives the fetch function's size
 * (infra/memory-sizing.ts v8HeapFlags), while it holds the fetched bodies of the other hosts fetch
 * works at once (MAX_CONCURRENT_HOSTS − 1: a body and its decoded page each; their extraction cannot
 * overlap this one, it is synchronous). It reports the peak RSS beside the function's size. The worst
 * shape's peak is the one infra/memory-sizing.ts sizes the function by.
 *
 *   npx tsx bench/memory-at-caps.ts [NODE_OPTION…]   → a table, and one JSON line per shape
 *   (options given replace the Lambda flags, e.g. to try another size's)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { esbuildOptions } from "../infra/bundling";
import { v8HeapFlags } from "../infra/memory-sizing";
import { topology } from "../infra/topology";
import { MAX_CONCURRENT_HOSTS } from "../lambdas/fetch";
import { DEFAULT_FETCH_LIMITS } from "../shared/fetch/http";
import { HOSTILE_SHAPES, type HostileShape } from "./hostile-pages";
import { formatTable, sig } from "./table";

export interface MemoryAtCap {
  readonly shape: HostileShape | "ordinary page";
  readonly pageBytes: number;
  /** RSS of the process once the bundle is loaded, before the page is made. */
  readonly baselineMb: number;
  /** Peak RSS over the whole run (getrusage maxrss). */
  readonly peakMb: number;
  readonly extractMs: number;
  readonly words: number;
  /** Other hosts' pages held through the extraction (read after it, so they stay alive until then). */
  readonly heldPages: number;
  readonly functionMb: number;
}

const repo = path.resolve(import.meta.dirname, "..");

// The child: build the fetch handler (its SDK clients and every module it loads, as a warm container
// holds them), make the page, extract it once, report. Bundled, so no TypeScript loader is in the process.
const CHILD = `
import { extractArticle } from ${JSON.stringify(path.join(repo, "shared/extract/article.ts"))};
import { createFetchHandler } from ${JSON.stringify(path.join(repo, "lambdas/fetch.ts"))};
import { environmentFor } from ${JSON.stringify(path.join(repo, "infra/topology.ts"))};
import { HOSTILE_SHAPES } from ${JSON.stringify(path.join(repo, "bench/hostile-pages.ts"))};
const [shape, bytes, others] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const named = (f) => new Proxy({}, { get: (_, k) => f(String(k)) });
createFetchHandler({
  ...environmentFor("fetch", { tables: named((t) => "t-" + t), queueUrls: named((q) => "https://sqs.us-east-1.amazonaws.com/1/" + q), deadLetterQueueUrls: named((q) => "https://sqs.us-east-1.amazonaws.com/1/" + q + "-dlq"), buckets: named((b) => "b-" + b) }),
  AWS_REGION: "us-east-1",
});
const baseline = process.memoryUsage().rss;
const make = () => shape === "ordinary page" ? "<html><body><article><p>" + "A sentence of an ordinary story. ".repeat(200) + "</p></article></body></html>" : HOSTILE_SHAPES[shape](bytes);
// The other hosts' pages, fetched and decoded, waiting for their turn to be extracted.
const held = Array.from({ length: others }, () => { const body = Buffer.from(make()); return [body, body.toString("latin1")]; });
const html = make();
const t = performance.now();
const x = extractArticle({ html, url: "https://news.example/a" });
const extractMs = performance.now() - t;
process.stdout.write(JSON.stringify({ pageBytes: html.length, baselineMb: baseline / 2 ** 20, peakMb: process.resourceUsage().maxRSS / 1024, extractMs, words: x.word_count, heldPages: held.length }));
`;

/** Measures each shape at the fetch byte cap, one fresh process each. */
export async function measureAtCaps(
  shapes: readonly (HostileShape | "ordinary page")[] = [
    "ordinary page",
    ...(Object.keys(HOSTILE_SHAPES) as HostileShape[]),
  ],
  /** Node options for the child: by default the V8 heap flags Lambda gives the fetch function's size. */
  nodeArgs: readonly string[] = v8HeapFlags(topology.functions.fetch.memoryMb),
  /** Other hosts' fetched pages held during the extraction (fetch works MAX_CONCURRENT_HOSTS at once). */
  others: number = MAX_CONCURRENT_HOSTS - 1,
): Promise<MemoryAtCap[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "storytrail-memory-"));
  try {
    const outfile = path.join(dir, "child.mjs");
    const opts = esbuildOptions("stdin", outfile);
    delete opts.entryPoints;
    await build({ ...opts, sourcemap: false, stdin: { contents: CHILD, resolveDir: repo, loader: "ts" } });
    const functionMb = topology.functions.fetch.memoryMb;
    return shapes.map((shape) => {
      const out = execFileSync(
        process.execPath,
        [...nodeArgs, outfile, shape, String(DEFAULT_FETCH_LIMITS.maxBytes), String(others)],
        {
          encoding: "utf8",
          maxBuffer: 1 << 20,
        },
      );
      return { shape, functionMb, ...(JSON.parse(out) as Omit<MemoryAtCap, "shape" | "functionMb">) };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bench's table: peak RSS per shape beside the fetch function's size. */
export function memoryTable(rows: readonly MemoryAtCap[]): string {
  return `Extraction at the fetch cap (${DEFAULT_FETCH_LIMITS.maxBytes} bytes), one fresh process per shape (bundled as Lambda's, V8 flags of a ${rows[0]?.functionMb} MB function, ${MAX_CONCURRENT_HOSTS - 1} other hosts' pages held); fetch function ${rows[0]?.functionMb} MB\n${formatTable(
    ["shape", "page MiB", "baseline MB", "peak RSS MB", "< function", "extract ms", "words"],
    rows.map((r) => [
      r.shape,
      sig(r.pageBytes / 2 ** 20),
      sig(r.baselineMb),
      sig(r.peakMb),
      r.peakMb < r.functionMb ? "yes" : "NO",
      sig(r.extractMs),
      r.words,
    ]),
  )}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const rows = await measureAtCaps(undefined, args.length > 0 ? args : undefined);
  console.log(memoryTable(rows));
  for (const r of rows) console.log(JSON.stringify(r));
}
