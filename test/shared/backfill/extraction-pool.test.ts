import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { ExtractionPool } from "../../../shared/backfill/extraction-pool";
import { extractArticle } from "../../../shared/extract/article";

const FUNDUS = resolve(import.meta.dirname, "../../../../shared/eval/fundus-parser-tests");
const NOW = new Date("2026-07-01T09:00:00Z");

describe("ExtractionPool", () => {
  const pool = new ExtractionPool(2);
  afterAll(() => pool.close());

  it("extracts in worker threads exactly what extractArticle does in this one, in any order of replies", async () => {
    const truth = JSON.parse(readFileSync(join(FUNDUS, "ground-truth.json"), "utf8")) as Record<
      string,
      { url: string; file: string }
    >;
    const inputs = Object.values(truth)
      .slice(0, 12)
      .map((t) => ({
        html: gunzipSync(readFileSync(join(FUNDUS, t.file))).toString("utf8"),
        url: t.url,
        headers: { "content-type": "text/html" },
        now: NOW,
        languageHint: null,
      }));
    const pooled = await Promise.all(inputs.map((i) => pool.extract(i)));
    expect(pooled).toEqual(inputs.map((i) => extractArticle(i)));
  });
});
