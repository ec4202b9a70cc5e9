/**
 * Extraction speed over the AEB developer pages held in memory, one core, in the same run:
 * storytrail's extractArticle, Readability.js on linkedom, the seed's rules (bench/seed-extractor.ts)
 * and cheerio's parse alone, parse5 (`load`) and htmlparser2 (`cheerio/slim`, the parser storytrail uses: its
 * floor). Ratios: vs storytrail.
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { Readability } from "@mozilla/readability";
import { load } from "cheerio";
import { load as loadSlim } from "cheerio/slim";
import { parseHTML } from "linkedom";
import { EVAL_DIR, EVAL_NOW, readPage } from "../scripts/eval-sets";
import { extractArticle } from "../shared/extract/article";
import { seedExtract } from "./seed-extractor";
import { interleaved } from "./table";

export interface ExtractSpeed {
  pages: number;
  meanKb: number;
  rows: { name: string; pagesPerCpuSecond: number; pagesPerSecond: number; vsStorytrail: number }[];
  /** storytrail alone in a fresh process (bench/extract-alone.ts): median pages/s, wall clock. */
  alone: { extract: number; parse: number };
}

/** Runs bench/extract-alone.ts in a child process (a heap no other extractor has touched). */
function benchExtractionAlone(rounds: number): { extract: number; parse: number } {
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "extract-alone.ts"), String(rounds)],
    { encoding: "utf8" },
  );
  return JSON.parse(out.trim().split("\n").at(-1)!) as { extract: number; parse: number };
}

export function benchExtraction(rounds: number): ExtractSpeed {
  const dir = path.join(EVAL_DIR, "aeb/html");
  const files = readdirSync(dir).filter((f) => f.endsWith(".html.gz"));
  const pages = files.map((f) => ({ html: readPage(path.join(dir, f)), url: `https://example.com/${f}` }));
  const pass = (fn: (p: (typeof pages)[number]) => unknown) => () => {
    for (const p of pages) fn(p);
    return pages.length;
  };
  const results = interleaved(
    [
      {
        name: "storytrail extractArticle",
        round: pass((p) => extractArticle({ html: p.html, url: p.url, now: EVAL_NOW })),
      },
      {
        name: "Readability.js + linkedom",
        round: pass((p) => new Readability(parseHTML(p.html).document as never).parse()),
      },
      { name: "seed rules (cheerio parse5)", round: pass((p) => seedExtract(p.html)) },
      { name: "cheerio load only (parse5)", round: pass((p) => load(p.html)) },
      // The parser storytrail uses: the floor for its own rate.
      { name: "cheerio/slim load only (htmlparser2)", round: pass((p) => loadSlim(p.html)) },
    ],
    rounds,
  );
  const base = results.get("storytrail extractArticle")!.cpuRate;
  return {
    alone: benchExtractionAlone(rounds * 4),
    pages: pages.length,
    meanKb: pages.reduce((s, p) => s + p.html.length, 0) / pages.length / 1024,
    rows: [...results].map(([name, r]) => ({
      name,
      pagesPerCpuSecond: r.cpuRate,
      pagesPerSecond: r.wallRate,
      vsStorytrail: r.cpuRate / base,
    })),
  };
}
