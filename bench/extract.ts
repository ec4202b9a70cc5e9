/**
 * Extraction speed: pages per second, single-threaded, over the AEB developer pages held in memory
 * (`npx tsx bench/extract.ts [--rounds N]`). Not a test: numbers depend on the machine.
 * With `--readability` it also times Readability.js + linkedom on the same pages for comparison.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { EVAL_DIR, evalDataAvailable, readPage } from "../scripts/eval-sets";
import { extractArticle } from "../shared/extract/article";
import { parseHtml } from "../shared/extract/dom";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "5" }, readability: { type: "boolean", default: false } },
});

if (!evalDataAvailable()) {
  console.error(`evaluation data not found at ${EVAL_DIR}`);
  process.exit(2);
}

const dir = path.join(EVAL_DIR, "aeb/html");
const pages = readdirSync(dir)
  .filter((f) => f.endsWith(".html.gz"))
  .map((f) => readPage(path.join(dir, f)));
const bytes = pages.reduce((n, p) => n + p.length, 0);
const now = new Date("2026-12-01T00:00:00Z");

/** Best round of `rounds` (the least disturbed by other processes on a shared machine), and the mean. */
function time(label: string, run: (html: string) => void, rounds: number): void {
  for (const p of pages) run(p); // warm-up: JIT and lazy module state
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (const p of pages) run(p);
    perRound.push((performance.now() - t0) / 1000);
  }
  const best = Math.min(...perRound);
  const mean = perRound.reduce((a, b) => a + b, 0) / perRound.length;
  const rate = (secs: number): string => (pages.length / secs).toFixed(1).padStart(7);
  console.log(
    `${label.padEnd(24)} best ${rate(best)} pages/s (${((best / pages.length) * 1000).toFixed(2)} ms/page)  mean ${rate(mean)} pages/s`,
  );
}

console.log(`${pages.length} AEB pages, ${(bytes / pages.length / 1024).toFixed(0)} KB average`);
time("parse only (baseline)", (html) => parseHtml(html), Number(values.rounds));
time(
  "storytrail extract",
  (html) => extractArticle({ html, url: "https://example.com/a", now }),
  Number(values.rounds),
);

if (values.readability) {
  const { Readability } = await import("@mozilla/readability");
  const { parseHTML } = await import("linkedom");
  time(
    "readability.js+linkedom",
    (html) => {
      const { document } = parseHTML(html);
      new Readability(document as never).parse();
    },
    1,
  );
}
