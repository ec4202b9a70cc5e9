/**
 * Runs the extractor over the four evaluation sets in ../shared/eval (developer split) and scores them with
 * the scorers in ../shared/tools. Shared by `npm run eval` and test/eval/extraction-eval.test.ts.
 * Nothing here is needed at run time: the product never reads ../shared.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { extractArticle } from "../shared/extract/article";
import { decodeBody } from "../shared/fetch/charset";
import type { Extraction } from "../shared/records";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..");
export const SHARED_DIR = path.resolve(REPO_ROOT, "../shared");
export const EVAL_DIR = path.join(SHARED_DIR, "eval");
export const TOOLS_DIR = path.join(SHARED_DIR, "tools");

export const SET_NAMES = ["aeb", "trafilatura", "dates", "fundus"] as const;
export type SetName = (typeof SET_NAMES)[number];

/** A fixed "now" so results do not drift with the clock (every eval page predates it). */
export const EVAL_NOW = new Date("2026-12-01T00:00:00Z");

export function evalDataAvailable(): boolean {
  return (
    existsSync(path.join(EVAL_DIR, "aeb/ground-truth.json")) &&
    existsSync(path.join(TOOLS_DIR, "score_extraction.mjs"))
  );
}

function readJson<T>(p: string): T {
  return JSON.parse(readFileSync(p, "utf8")) as T;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A saved page as text: valid UTF-8 is taken as UTF-8 (some sets store pages re-encoded but keep the
 * original <meta charset>), anything else is decoded as the fetcher decodes a response.
 */
export function readPage(file: string): string {
  const raw = readFileSync(file);
  const buf = file.endsWith(".gz") ? gunzipSync(raw) : raw;
  try {
    return strictUtf8.decode(buf);
  } catch {
    return decodeBody(buf, null).text;
  }
}

type Scorer = (...args: unknown[]) => unknown;
async function tool(name: string, fn: string): Promise<Scorer> {
  const mod = (await import(pathToFileURL(path.join(TOOLS_DIR, name)).href)) as Record<string, Scorer>;
  const f = mod[fn];
  if (!f) throw new Error(`${name} has no export ${fn}`);
  return f;
}

export interface AebFigures {
  f1: number;
  precision: number;
  recall: number;
  accuracy: number;
  pages: number;
}
export interface SegmentFigures {
  f1: number;
  precision: number;
  recall: number;
  accuracy: number;
  pages: number;
}
export interface DateFigures {
  accuracy_day: number;
  correct: number;
  with_date: number;
}
export interface FundusFigures {
  headline_exact: number;
  /** Author lists equal as sets (fundus has no scorer for them; informative). */
  authors_exact: number;
  date_day_accuracy: number;
  body_f1: number;
  body_precision: number;
  body_recall: number;
  pages: number;
}

export interface SetRun<F> {
  figures: F;
  /** id → extraction, for per-page diagnostics. */
  predictions: Record<string, Extraction>;
  perDoc?: unknown[];
  errors?: unknown[];
}

function extract(file: string, url: string, languageHint: string | null = null): Extraction {
  return extractArticle({ html: readPage(file), url, now: EVAL_NOW, languageHint });
}

export async function runAeb(): Promise<SetRun<AebFigures>> {
  const dir = path.join(EVAL_DIR, "aeb");
  const truth = readJson<Record<string, { articleBody: string; url: string }>>(
    path.join(dir, "ground-truth.json"),
  );
  const predictions: Record<string, Extraction> = {};
  const pred: Record<string, { articleBody: string }> = {};
  for (const [id, t] of Object.entries(truth)) {
    const x = extract(path.join(dir, "html", `${id}.html.gz`), t.url);
    predictions[id] = x;
    pred[id] = { articleBody: x.body };
  }
  const evaluate = await tool("score_extraction.mjs", "evaluate");
  const { result, perDoc } = evaluate(truth, pred, { bootstrap: 0 }) as {
    result: AebFigures;
    perDoc: unknown[];
  };
  const { f1, precision, recall, accuracy, pages } = result;
  return { figures: { f1, precision, recall, accuracy, pages }, predictions, perDoc };
}

export async function runTrafilatura(): Promise<SetRun<SegmentFigures>> {
  const dir = path.join(EVAL_DIR, "trafilatura");
  const truth = readJson<Record<string, { file: string }>>(path.join(dir, "evaldata.json"));
  const predictions: Record<string, Extraction> = {};
  const pred: Record<string, string> = {};
  for (const [url, t] of Object.entries(truth)) {
    const x = extract(path.join(dir, t.file), url);
    predictions[url] = x;
    pred[url] = x.body;
  }
  const scoreSegments = await tool("score_segments.mjs", "scoreSegments");
  const r = scoreSegments(truth, pred) as SegmentFigures;
  return {
    figures: { f1: r.f1, precision: r.precision, recall: r.recall, accuracy: r.accuracy, pages: r.pages },
    predictions,
  };
}

export async function runDates(): Promise<SetRun<DateFigures>> {
  const dir = path.join(EVAL_DIR, "dates");
  const truth = readJson<Record<string, { file: string; url: string; date: string | null }>>(
    path.join(dir, "ground-truth.json"),
  );
  const predictions: Record<string, Extraction> = {};
  const pred: Record<string, string | null> = {};
  for (const [id, t] of Object.entries(truth)) {
    const x = extract(path.join(dir, t.file), t.url);
    predictions[id] = x;
    pred[id] = x.published_day;
  }
  const scoreDates = await tool("score_dates.mjs", "scoreDates");
  const r = scoreDates(truth, pred) as {
    counts: { correct: number; withDate: number };
    metrics: { accuracy_day: number };
    errors: unknown[];
  };
  return {
    figures: {
      accuracy_day: r.metrics.accuracy_day,
      correct: r.counts.correct,
      with_date: r.counts.withDate,
    },
    predictions,
    errors: r.errors,
  };
}

interface FundusTruth {
  file: string;
  url: string;
  title: string | null;
  publishing_date: string | null;
  articleBody: string;
  authors?: string[];
  languageHint?: string[];
}

const ws = (s: string | null | undefined): string => (s ?? "").replace(/\s+/g, " ").trim();

export async function runFundus(): Promise<SetRun<FundusFigures>> {
  const dir = path.join(EVAL_DIR, "fundus-parser-tests");
  const truth = readJson<Record<string, FundusTruth>>(path.join(dir, "ground-truth.json"));
  const predictions: Record<string, Extraction> = {};
  const bodies: Record<string, { articleBody: string }> = {};
  const days: Record<string, string | null> = {};
  let titled = 0;
  let titleHits = 0;
  let authorHits = 0;
  const errors: unknown[] = [];
  for (const [id, t] of Object.entries(truth)) {
    const x = extract(path.join(dir, t.file), t.url, t.languageHint?.[0] ?? null);
    predictions[id] = x;
    bodies[id] = { articleBody: x.body };
    days[id] = x.published_day;
    const want = (t.authors ?? []).map((a) => ws(a)).sort();
    const got = x.authors.map((a) => ws(a)).sort();
    if (want.length === got.length && want.every((a, i) => a === got[i])) authorHits++;
    if (t.title) {
      titled++;
      if (ws(t.title) === ws(x.headline)) titleHits++;
      else errors.push({ id, kind: "headline", truth: t.title, pred: x.headline });
    }
  }
  const evaluate = await tool("score_extraction.mjs", "evaluate");
  const scoreDates = await tool("score_dates.mjs", "scoreDates");
  const body = evaluate(truth, bodies, { bootstrap: 0 }) as { result: AebFigures; perDoc: unknown[] };
  const d = scoreDates(truth, days, { truthField: "publishing_date" }) as {
    metrics: { accuracy_day: number };
    errors: unknown[];
  };
  return {
    figures: {
      headline_exact: titled ? titleHits / titled : 0,
      authors_exact: authorHits / Object.keys(truth).length,
      date_day_accuracy: d.metrics.accuracy_day,
      body_f1: body.result.f1,
      body_precision: body.result.precision,
      body_recall: body.result.recall,
      pages: Object.keys(truth).length,
    },
    predictions,
    perDoc: body.perDoc,
    errors: [...errors, ...d.errors],
  };
}
