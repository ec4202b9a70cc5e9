/**
 * Import speed on one core: the AEB dev pages written into a per-record gzip WARC (warcio's writer),
 * then read back with readWarc and extracted, against extracting the same pages from memory (what
 * `storytrail extract` does per page). Stores and dedup are left out of both: the same code and the
 * same cost whichever way a page arrives.
 *
 *   npx tsx bench/backfill-import.ts [ROUNDS]   → one JSON line {pages, records_per_s, import_pages_per_s, extract_pages_per_s, ratio}
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { EVAL_DIR, EVAL_NOW, readPage } from "../scripts/eval-sets";
import { readWarc } from "../shared/backfill/warc-pages";
import { extractArticle } from "../shared/extract/article";
import { type WarcRecordSpec, writeWarc } from "../test/support/warc-files";

const rounds = Number(process.argv[2] ?? 5);
const dir = path.join(EVAL_DIR, "aeb/html");
const pages = readdirSync(dir)
  .filter((f) => f.endsWith(".html.gz"))
  .map((f) => ({
    html: readPage(path.join(dir, f)),
    url: `https://example.com/${f.replace(/\.html\.gz$/, "")}`,
  }));
const date = EVAL_NOW.toISOString();
const specs: WarcRecordSpec[] = pages.flatMap((p): WarcRecordSpec[] => [
  { type: "request", url: p.url, date },
  { type: "response", url: p.url, date, body: p.html },
]);
const warc = await writeWarc(specs, "record-gzip");

async function* chunks(buf: Buffer, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const importRates: number[] = [];
const extractRates: number[] = [];
for (let r = 0; r < rounds; r++) {
  let t = performance.now();
  for (const p of pages) extractArticle({ html: p.html, url: p.url, now: EVAL_NOW });
  extractRates.push(pages.length / ((performance.now() - t) / 1000));
  t = performance.now();
  let n = 0;
  for await (const e of readWarc(chunks(warc), { maxBytes: 5 * 1024 * 1024 })) {
    if (e.kind === "page") {
      extractArticle({
        html: e.page.text,
        url: e.page.url,
        headers: e.page.headers,
        now: e.page.collectedAt,
      });
      n++;
    }
  }
  importRates.push(n / ((performance.now() - t) / 1000));
}
const importPages = median(importRates);
const extractPages = median(extractRates);
process.stdout.write(
  `${JSON.stringify({
    pages: pages.length,
    warc_bytes: warc.length,
    records_per_s: Math.round(importPages * 2),
    import_pages_per_s: Math.round(importPages),
    extract_pages_per_s: Math.round(extractPages),
    ratio: Number((importPages / extractPages).toFixed(3)),
  })}\n`,
);
