/**
 * Article bodies stored compressed (issue 15): each codec's ratio, CPU and the Articles item's write
 * units, over the bodies the extractor takes from every evaluation page (../shared/eval, developer
 * part) and the dedup corpus' article bodies. `npx tsx bench/body-compression.ts` or `npm run bench --
 * --only compression` (~1 min alone; extraction is most of it): prints tables; `--json` the figures.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import { EVAL_DIR, EVAL_NOW, readPage } from "../scripts/eval-sets";
import { extractArticle } from "../shared/extract/article";
import { type Article, RECORD_VERSION } from "../shared/records";
import { dynamoItemSize, writeUnits } from "./cost-model";
import { GB, PRICES } from "./prices";
import { formatTable, sig } from "./table";

export interface Codec {
  readonly name: string;
  readonly encode: (b: Buffer) => Buffer;
  readonly decode: (b: Buffer) => Buffer;
}

const brotli = (quality: number): Codec => ({
  name: `brotli q${quality}`,
  encode: (b) =>
    brotliCompressSync(b, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: b.length,
      },
    }),
  decode: (b) => brotliDecompressSync(b),
});

const gzip = (level: number): Codec => ({
  name: `gzip ${level}`,
  encode: (b) => gzipSync(b, { level }),
  decode: (b) => gunzipSync(b),
});

/** What the Articles item stores (shared/consumer/article-item.ts). */
const CHOSEN = "gzip 6";

const CODECS: readonly Codec[] = [gzip(1), gzip(6), gzip(9), brotli(4), brotli(6), brotli(9), brotli(11)];

/** Every evaluation page's extracted body, and the dedup corpus' base article bodies. */
function realBodies(): { pages: Omit<Article, "cluster_id">[]; corpus: string[] } {
  const pages: Omit<Article, "cluster_id">[] = [];
  for (const set of ["aeb", "dates", "trafilatura", "fundus-parser-tests", "mercury"]) {
    const dir = path.join(EVAL_DIR, set, "html");
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".html.gz"))) {
      const url = `https://www.example-news.com/${set}/2026/12/01/${f.slice(0, 40)}`;
      const x = extractArticle({ html: readPage(path.join(dir, f)), url, now: EVAL_NOW });
      if (x.body.length === 0) continue;
      // The item as fetch writes it (shared/crawl/fetch-article.ts), with typical fixed fields.
      pages.push({
        ...x,
        truncated: x.truncated ?? null,
        record_version: RECORD_VERSION,
        article_id: "0123456789abcdef0123456789abcdef",
        url,
        url_variants: [url],
        source_id: "example-news",
        publication: "Example News",
        collected_at: "2026-12-01T12:34:56.789Z",
        http_status: 200,
        raw_key: null,
        extractor_version: "2026.12.1",
        revision_count: 0,
        revisions: [],
      });
    }
  }
  const corpus = readFileSync(path.join(EVAL_DIR, "dedup/base_articles-dev.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { paragraphs: string[] }).paragraphs.join("\n\n"));
  return { pages, corpus };
}

export interface CodecFigures {
  readonly codec: string;
  /** Compressed bytes over UTF-8 bytes, all bodies together. */
  readonly ratio: number;
  /** CPU µs per body to compress and to decompress (mean). */
  readonly encodeUs: number;
  readonly decodeUs: number;
  /** Mean write units of the Articles item (the by-day index entry not included: it has no body). */
  readonly wruPerArticle: number;
  readonly meanItemBytes: number;
  readonly maxItemBytes: number;
}

function cpuUs(fn: () => void): number {
  const t0 = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t0);
  return d.user + d.system;
}

function itemOf(a: Omit<Article, "cluster_id">, body: string | Buffer): Record<string, unknown> {
  const { body: _text, ...rest } = a;
  return {
    ...rest,
    collected_day: a.collected_at.slice(0, 10),
    url_variants: new Set(a.url_variants),
    body,
    ...(typeof body === "string" ? {} : { body_encoding: "gzip" }),
  };
}

export function measure(
  articles: readonly Omit<Article, "cluster_id">[],
  codecs: readonly Codec[] = CODECS,
): { plain: CodecFigures; codecs: CodecFigures[] } {
  const utf8 = articles.map((a) => Buffer.from(a.body, "utf8"));
  const total = utf8.reduce((s, b) => s + b.length, 0);
  const sizes = articles.map((a) => dynamoItemSize(itemOf(a, a.body)));
  const plain: CodecFigures = {
    codec: "none (v2: a string)",
    ratio: 1,
    encodeUs: 0,
    decodeUs: 0,
    wruPerArticle: sizes.reduce((s, n) => s + writeUnits(n), 0) / articles.length,
    meanItemBytes: sizes.reduce((s, n) => s + n, 0) / articles.length,
    maxItemBytes: Math.max(...sizes),
  };
  const rows = codecs.map((c): CodecFigures => {
    let packed: Buffer[] = [];
    // Best of three passes, so a neighbour's burst on a shared machine does not count.
    const enc = Math.min(
      ...[0, 1, 2].map(() =>
        cpuUs(() => {
          packed = utf8.map((b) => c.encode(b));
        }),
      ),
    );
    const dec = Math.min(
      ...[0, 1, 2].map(() =>
        cpuUs(() => {
          for (const b of packed) c.decode(b);
        }),
      ),
    );
    packed.forEach((b, i) => {
      if (!c.decode(b).equals(utf8[i]!)) throw new Error(`${c.name} does not round-trip body ${i}`);
    });
    const itemSizes = articles.map((a, i) => dynamoItemSize(itemOf(a, packed[i]!)));
    return {
      codec: c.name,
      ratio: packed.reduce((s, b) => s + b.length, 0) / total,
      encodeUs: enc / articles.length,
      decodeUs: dec / articles.length,
      wruPerArticle: itemSizes.reduce((s, n) => s + writeUnits(n), 0) / articles.length,
      meanItemBytes: itemSizes.reduce((s, n) => s + n, 0) / articles.length,
      maxItemBytes: Math.max(...itemSizes),
    };
  });
  return { plain, codecs: rows };
}

function formatFigures(title: string, f: { plain: CodecFigures; codecs: CodecFigures[] }): string {
  const rows = [f.plain, ...f.codecs].map((r) => [
    r.codec,
    sig(r.ratio, 3),
    sig(r.encodeUs, 3),
    sig(r.decodeUs, 3),
    sig(r.meanItemBytes, 4),
    sig(r.maxItemBytes, 4),
    sig(r.wruPerArticle, 3),
    sig(f.plain.wruPerArticle - r.wruPerArticle, 3),
  ]);
  return `${title}\n${formatTable(
    [
      "codec",
      "size ratio",
      "compress µs/body",
      "decompress µs/body",
      "mean item B",
      "max item B",
      "WRU/article",
      "WRU saved",
    ],
    rows,
  )}`;
}

/** The figures on the evaluation pages and the dedup corpus, and the table text with the saving. */
export function bodyCompressionReport(): {
  figures: { pages: ReturnType<typeof measure>; corpus: ReturnType<typeof measure> };
  text: string;
} {
  const { pages, corpus } = realBodies();
  const pageFigures = measure(pages);
  // The dedup corpus' bodies, as articles with the same fixed fields as the first page.
  const base = pages[0]!;
  const corpusFigures = measure(corpus.map((body) => ({ ...base, body, headline: null, authors: [] })));
  const bytes = pages.map((p) => Buffer.byteLength(p.body)).sort((a, b) => a - b);
  const chosen = pageFigures.codecs.find((c) => c.codec === CHOSEN)!;
  const saved = pageFigures.plain.wruPerArticle - chosen.wruPerArticle;
  const storedGb = ((pageFigures.plain.meanItemBytes - chosen.meanItemBytes) * 1e6) / GB;
  const text = `${formatFigures(
    `Article bodies stored compressed: ${pages.length} evaluation pages (body UTF-8: median ${bytes[bytes.length >> 1]} B, max ${bytes.at(-1)} B)`,
    pageFigures,
  )}\n\n${formatFigures(`${corpus.length} dedup corpus base articles`, corpusFigures)}\n\n${CHOSEN} (stored): ${sig(saved, 3)} WRU saved per article = $${(saved * 1e6 * PRICES.dynamoPerWru).toFixed(2)} per million articles on demand, and ${sig(storedGb, 3)} GB less stored per million articles ($${(storedGb * PRICES.dynamoStoragePerGbMonth).toFixed(2)} a month)`;
  return { figures: { pages: pageFigures, corpus: corpusFigures }, text };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = bodyCompressionReport();
  process.stdout.write(
    process.argv.includes("--json") ? `${JSON.stringify(r.figures, null, 2)}\n` : `${r.text}\n`,
  );
}
