/**
 * Import speed on one core against `storytrail extract` on the same pages. The AEB dev pages, written
 * into a per-record gzip WARC file (warcio's writer), are read back from that file with readWarc and
 * extracted, as `storytrail import` reads them; the baseline does per page what `storytrail extract`
 * does: read the saved page (.html.gz), gunzip, decode, extract. Stores and dedup are left out of
 * both: the same code and the same cost whichever way a page arrives. Rounds alternate which side runs
 * first; the ratio is the median of the rounds' ratios (a shared machine's load moves both sides).
 *
 *   npx tsx bench/backfill-import.ts [ROUNDS]   → one JSON line {pages, records_per_s, import_pages_per_s, extract_pages_per_s, ratio}
 */
import { createReadStream, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { EVAL_DIR, EVAL_NOW, readPage } from "../scripts/eval-sets";
import { readWarc } from "../shared/backfill/warc-pages";
import { extractArticle } from "../shared/extract/article";
import { type WarcRecordSpec, writeWarc } from "../test/support/warc-files";

const rounds = Number(process.argv[2] ?? 5);
const dir = path.join(EVAL_DIR, "aeb/html");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".html.gz"))
  .map((f) => ({ file: path.join(dir, f), url: `https://example.com/${f.replace(/\.html\.gz$/, "")}` }));
const date = EVAL_NOW.toISOString();
const specs: WarcRecordSpec[] = files.flatMap((p): WarcRecordSpec[] => [
  { type: "request", url: p.url, date },
  { type: "response", url: p.url, date, body: readPage(p.file) },
]);
const tmp = mkdtempSync(path.join(tmpdir(), "storytrail-bench-warc-"));
const warcFile = path.join(tmp, "pages.warc.gz");
const warc = await writeWarc(specs, "record-gzip");
writeFileSync(warcFile, warc);

/** `storytrail extract` per page: read the saved page, gunzip, decode, extract. */
function extractPass(): number {
  const t = performance.now();
  for (const p of files) extractArticle({ html: readPage(p.file), url: p.url, now: EVAL_NOW });
  return files.length / ((performance.now() - t) / 1000);
}

/** `storytrail import` without its stores: the WARC file streamed through readWarc, each page extracted. */
async function importPass(): Promise<number> {
  const t = performance.now();
  let n = 0;
  const source = createReadStream(warcFile, { highWaterMark: 256 * 1024 });
  for await (const e of readWarc(source, { maxBytes: 5 * 1024 * 1024 })) {
    if (e.kind !== "page") continue;
    extractArticle({ html: e.page.text, url: e.page.url, headers: e.page.headers, now: e.page.collectedAt });
    n++;
  }
  return n / ((performance.now() - t) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const importRates: number[] = [];
const extractRates: number[] = [];
const ratios: number[] = [];
try {
  for (let r = 0; r < rounds; r++) {
    let imp: number;
    let ext: number;
    if (r % 2 === 0) {
      ext = extractPass();
      imp = await importPass();
    } else {
      imp = await importPass();
      ext = extractPass();
    }
    importRates.push(imp);
    extractRates.push(ext);
    ratios.push(imp / ext);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const importPages = median(importRates);
process.stdout.write(
  `${JSON.stringify({
    pages: files.length,
    warc_bytes: warc.length,
    records_per_s: Math.round(importPages * 2),
    import_pages_per_s: Math.round(importPages),
    extract_pages_per_s: Math.round(median(extractRates)),
    ratio: Number(median(ratios).toFixed(3)),
  })}\n`,
);
