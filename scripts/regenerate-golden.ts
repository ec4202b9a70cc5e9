/**
 * Regenerates the golden extraction fixtures: test/fixtures/extract/<name>.html + cases.json → <name>.expected.json.
 * Run after an intended output change (and bump EXTRACTOR_VERSION): `npx tsx scripts/regenerate-golden.ts`.
 * Review the diff before committing: every change in the expected JSON should be one you meant.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { extractArticle } from "../shared/extract/article";
import type { Extraction } from "../shared/records";

export const GOLDEN_DIR = path.resolve(import.meta.dirname, "../test/fixtures/extract");
/** Fixed clock so "future" checks do not drift. */
export const GOLDEN_NOW = new Date("2026-06-01T00:00:00Z");

export interface GoldenCase {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

export function goldenCases(): GoldenCase[] {
  return JSON.parse(readFileSync(path.join(GOLDEN_DIR, "cases.json"), "utf8")) as GoldenCase[];
}

export function runGoldenCase(c: GoldenCase): Extraction {
  const html = readFileSync(path.join(GOLDEN_DIR, `${c.name}.html`), "utf8");
  return extractArticle({ html, url: c.url, headers: c.headers, now: GOLDEN_NOW });
}

export function expectedPath(c: GoldenCase): string {
  return path.join(GOLDEN_DIR, `${c.name}.expected.json`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const c of goldenCases()) {
    writeFileSync(expectedPath(c), `${JSON.stringify(runGoldenCase(c), null, 2)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), expectedPath(c))}`);
  }
}
