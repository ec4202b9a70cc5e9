import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExtractionPool } from "../../../shared/backfill/extraction-pool";
import { encodeBody } from "../../../shared/consumer/article-item";
import { gzipRawHtml, sampled } from "../../../shared/crawl/raw-sample";
import { computeFingerprint } from "../../../shared/dedup/fingerprint";
import { extractArticle, isThin } from "../../../shared/extract/article";
import { articleIdFor, resolveCanonical } from "../../../shared/url/canonical-url";

const FUNDUS = resolve(import.meta.dirname, "../../../../shared/eval/fundus-parser-tests");
const NOW = new Date("2026-07-01T09:00:00Z");

describe("ExtractionPool", () => {
  let pool: ExtractionPool;
  beforeAll(async () => {
    pool = await ExtractionPool.start(2);
  });
  afterAll(() => pool.close());

  it("decodes, extracts, fingerprints and compresses in worker threads exactly what this one does, in any order of replies", async () => {
    const truth = JSON.parse(readFileSync(join(FUNDUS, "ground-truth.json"), "utf8")) as Record<
      string,
      { url: string; file: string }
    >;
    const pages = Object.values(truth)
      .slice(0, 12)
      .map((t) => ({ bytes: gunzipSync(readFileSync(join(FUNDUS, t.file))), url: t.url }));
    // One page in ISO-8859-1, declared by its Content-Type only: the worker decodes as the fetcher does.
    const latin =
      "<html><head><title>Caf\u00e9</title></head><body><article><h1>Caf\u00e9 cr\u00e8me</h1><p>Le caf\u00e9 est servi.</p></article></body></html>";
    pages.push({ bytes: Buffer.from(latin, "latin1"), url: "https://example.fr/cafe" });
    const jobs = pages.map((p, i) => ({
      bytes: p.bytes,
      contentType: i === pages.length - 1 ? "text/html; charset=iso-8859-1" : "text/html",
      input: { url: p.url, headers: { "content-type": "text/html" }, now: NOW, languageHint: null },
      sample: { rate: 0.5, partners: [] },
    }));
    const pooled = await Promise.all(jobs.map((j) => pool.prepare(j)));
    const here = jobs.map((j, i) => {
      const html = i === pages.length - 1 ? latin : (pages[i]?.bytes.toString("utf8") ?? "");
      const extraction = extractArticle({ ...j.input, html });
      const article_id = articleIdFor(resolveCanonical(j.input.url, extraction.canonical_from_page));
      const kept = isThin(extraction) || sampled(article_id, j.sample.rate);
      return {
        extraction,
        fingerprint: computeFingerprint(extraction.body, extraction.headline),
        // The bytes as the Articles item and the raw sample store them, compressed here.
        bodyGzip: new Uint8Array(encodeBody(extraction.body)),
        rawSample: kept ? { article_id, gzip: new Uint8Array(gzipRawHtml(html)) } : null,
      };
    });
    expect(pooled).toEqual(here);
    // Some pages keep a raw sample and some do not (half are sampled).
    expect(new Set(pooled.map((p) => p.rawSample === null))).toEqual(new Set([true, false]));
    expect(pooled.at(-1)?.extraction.headline).toBe("Caf\u00e9 cr\u00e8me");
  });

  it("answers jobs posted ahead in order, a failed one refused with its reason and the rest answered", async () => {
    const texts = Array.from({ length: 40 }, (_, i) => ({
      text: `Story ${i}: the council met on Tuesday and voted ${i} to ${40 - i} on the harbour plan.`,
      title: `Story ${i}`,
    }));
    // All posted before any reply is read: they wait in the workers' own queues.
    const batches = [
      pool.fingerprints(texts.slice(0, 16)),
      pool.fingerprints([{ text: null as unknown as string, title: null }]),
      pool.fingerprints(texts.slice(16)),
    ];
    const failed = batches[1]!.then(
      () => "answered",
      (err: Error) => err.message,
    );
    const answered = [...(await batches[0]!), ...(await batches[2]!)];
    expect(await failed).toContain("null");
    expect(answered).toEqual(texts.map((t) => computeFingerprint(t.text, t.title)));
  });
});
