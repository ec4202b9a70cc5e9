/**
 * storytrail's extraction on its own, in a fresh process: the absolute rate issue #4 sets a target for
 * (≥ 250 pages/s over the AEB dev pages in memory), beside the bare htmlparser2 parse it rests on.
 * Kept apart from the interleaved comparison (extract-speed.ts) because Readability.js on linkedom
 * and parse5 leave a large heap behind them, and every later round in that process pays its GC.
 *
 *   npx tsx bench/extract-alone.ts [ROUNDS]   → one JSON line {pages, extract, parse, ratio} (median pages/s, wall;
 *   ratio = extract ÷ parse)
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { parseDocument } from "htmlparser2";
import { EVAL_DIR, EVAL_NOW, readPage } from "../scripts/eval-sets";
import { extractArticle } from "../shared/extract/article";

const rounds = Number(process.argv[2] ?? 12);
const dir = path.join(EVAL_DIR, "aeb/html");
const pages = readdirSync(dir)
  .filter((f) => f.endsWith(".html.gz"))
  .map((f) => ({ html: readPage(path.join(dir, f)), url: `https://example.com/${f}` }));
const rate = (fn: () => void) => {
  const t = performance.now();
  fn();
  return pages.length / ((performance.now() - t) / 1000);
};
const extract = () => {
  for (const p of pages) extractArticle({ html: p.html, url: p.url, now: EVAL_NOW });
};
const parse = () => {
  for (const p of pages) parseDocument(p.html);
};
extract();
parse();
const e: number[] = [];
const q: number[] = [];
for (let r = 0; r < rounds; r++) {
  e.push(rate(extract));
  q.push(rate(parse));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const extractRate = median(e);
const parseRate = median(q);
// The ratio is what issue 25 sets a target for (≥ 0.5): both rates share the run, so load cancels out.
console.log(
  JSON.stringify({
    pages: pages.length,
    extract: extractRate,
    parse: parseRate,
    ratio: extractRate / parseRate,
  }),
);
