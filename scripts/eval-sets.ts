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
import { siteOf } from "./eval-folds";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..");
export const SHARED_DIR = path.resolve(REPO_ROOT, "../shared");
export const EVAL_DIR = path.join(SHARED_DIR, "eval");
export const TOOLS_DIR = path.join(SHARED_DIR, "tools");

export const SET_NAMES = ["aeb", "trafilatura", "dates", "fundus", "mercury"] as const;
export type SetName = (typeof SET_NAMES)[number];

/** A fixed "now" so results do not drift with the clock (every eval page predates it). */
export const EVAL_NOW = new Date("2026-12-01T00:00:00Z");

export function evalDataAvailable(): boolean {
  return (
    existsSync(path.join(EVAL_DIR, "aeb/ground-truth.json")) &&
    existsSync(path.join(TOOLS_DIR, "score_extraction.mjs"))
  );
}

export function readJson<T>(p: string): T {
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
  /** The set's own title field (trafilatura's metadata benchmark), exact after whitespace: a third headline set. */
  headline_exact: number;
  titled: number;
}
export interface DateFigures {
  accuracy_day: number;
  correct: number;
  with_date: number;
}
export interface FundusFigures {
  /** Fundus's title against `headline_declared ?? headline`: Fundus takes the declared headline. */
  headline_exact: number;
  /** Fundus's title against `headline` alone, the shown headline (informative). */
  headline_shown_exact: number;
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
  /** id → site (registrable domain, or the set's own site field), for the site-grouped folds. */
  sites: Record<string, string>;
  /** The same figures on a subset of the pages (a fold). */
  scoreOn: (ids: string[]) => F;
  /** id → extraction, for per-page diagnostics. */
  predictions: Record<string, Extraction>;
  perDoc?: unknown[];
  errors?: unknown[];
}

/** `truth` restricted to `ids`. */
function pick<T>(truth: Record<string, T>, ids: string[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const id of ids) if (id in truth) out[id] = truth[id]!;
  return out;
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
  const sites: Record<string, string> = {};
  for (const [id, t] of Object.entries(truth)) {
    const x = extract(path.join(dir, "html", `${id}.html.gz`), t.url);
    predictions[id] = x;
    pred[id] = { articleBody: x.body };
    sites[id] = siteOf(t.url);
  }
  const evaluate = await tool("score_extraction.mjs", "evaluate");
  const score = (ids: string[]): { result: AebFigures; perDoc: unknown[] } =>
    evaluate(pick(truth, ids), pick(pred, ids), { bootstrap: 0 }) as {
      result: AebFigures;
      perDoc: unknown[];
    };
  const figuresOf = (r: AebFigures): AebFigures => {
    const { f1, precision, recall, accuracy, pages } = r;
    return { f1, precision, recall, accuracy, pages };
  };
  const { result, perDoc } = score(Object.keys(truth));
  return {
    figures: figuresOf(result),
    sites,
    scoreOn: (ids) => figuresOf(score(ids).result),
    predictions,
    perDoc,
  };
}

export async function runTrafilatura(): Promise<SetRun<SegmentFigures>> {
  const dir = path.join(EVAL_DIR, "trafilatura");
  const truth = readJson<Record<string, { file: string; title?: string }>>(path.join(dir, "evaldata.json"));
  const predictions: Record<string, Extraction> = {};
  const pred: Record<string, string> = {};
  const sites: Record<string, string> = {};
  const titleHit: Record<string, boolean> = {};
  for (const [url, t] of Object.entries(truth)) {
    const x = extract(path.join(dir, t.file), url);
    predictions[url] = x;
    pred[url] = x.body;
    sites[url] = siteOf(url);
    if (t.title) titleHit[url] = ws(t.title) === ws(x.headline);
  }
  const scoreSegments = await tool("score_segments.mjs", "scoreSegments");
  const scoreOn = (ids: string[]): SegmentFigures => {
    const r = scoreSegments(pick(truth, ids), pred) as SegmentFigures;
    const titled = ids.filter((id) => id in titleHit);
    const headline_exact = titled.length ? titled.filter((id) => titleHit[id]).length / titled.length : 0;
    const { f1, precision, recall, accuracy, pages } = r;
    return { f1, precision, recall, accuracy, pages, headline_exact, titled: titled.length };
  };
  return { figures: scoreOn(Object.keys(truth)), sites, scoreOn, predictions };
}

export async function runDates(): Promise<SetRun<DateFigures>> {
  const dir = path.join(EVAL_DIR, "dates");
  const truth = readJson<Record<string, { file: string; url: string; date: string | null }>>(
    path.join(dir, "ground-truth.json"),
  );
  const predictions: Record<string, Extraction> = {};
  const pred: Record<string, string | null> = {};
  const sites: Record<string, string> = {};
  for (const [id, t] of Object.entries(truth)) {
    const x = extract(path.join(dir, t.file), t.url);
    predictions[id] = x;
    pred[id] = x.published_day;
    sites[id] = siteOf(t.url);
  }
  const scoreDates = await tool("score_dates.mjs", "scoreDates");
  type Scored = {
    counts: { correct: number; withDate: number };
    metrics: { accuracy_day: number };
    errors: unknown[];
  };
  const score = (ids: string[]): Scored => scoreDates(pick(truth, ids), pred) as Scored;
  const figuresOf = (r: Scored): DateFigures => ({
    accuracy_day: r.metrics.accuracy_day,
    correct: r.counts.correct,
    with_date: r.counts.withDate,
  });
  const r = score(Object.keys(truth));
  return {
    figures: figuresOf(r),
    sites,
    scoreOn: (ids) => figuresOf(score(ids)),
    predictions,
    errors: r.errors,
  };
}

interface FundusTruth {
  file: string;
  url: string;
  publisher?: string;
  title: string | null;
  publishing_date: string | null;
  articleBody: string;
  authors?: string[];
  languageHint?: string[];
}

/**
 * The names a set's author field holds: the people and the organisations credited (both sets list a wire
 * beside the reporters, "Reuters", "dpa", and an agency or the publication alone on an article nobody
 * signed). Record version 5 keeps the two apart (`authors`, `credit`).
 */
function bylineOf(x: Extraction): string[] {
  return [...x.authors, ...x.credit];
}

export const ws = (s: string | null | undefined): string => (s ?? "").replace(/\s+/g, " ").trim();

export async function runFundus(): Promise<SetRun<FundusFigures>> {
  const dir = path.join(EVAL_DIR, "fundus-parser-tests");
  const truth = readJson<Record<string, FundusTruth>>(path.join(dir, "ground-truth.json"));
  const predictions: Record<string, Extraction> = {};
  const bodies: Record<string, { articleBody: string }> = {};
  const days: Record<string, string | null> = {};
  const sites: Record<string, string> = {};
  const titleHit: Record<string, boolean> = {};
  const shownHit: Record<string, boolean> = {};
  const authorHit: Record<string, boolean> = {};
  const errors: unknown[] = [];
  for (const [id, t] of Object.entries(truth)) {
    const x = extract(path.join(dir, t.file), t.url, t.languageHint?.[0] ?? null);
    predictions[id] = x;
    bodies[id] = { articleBody: x.body };
    days[id] = x.published_day;
    sites[id] = t.publisher ?? siteOf(t.url);
    const want = (t.authors ?? []).map((a) => ws(a)).sort();
    const got = bylineOf(x)
      .map((a) => ws(a))
      .sort();
    authorHit[id] = want.length === got.length && want.every((a, i) => a === got[i]);
    if (!authorHit[id]) errors.push({ id, kind: "authors", truth: want, pred: got });
    if (t.title) {
      const pred = x.headline_declared ?? x.headline;
      titleHit[id] = ws(t.title) === ws(pred);
      shownHit[id] = ws(t.title) === ws(x.headline);
      if (!titleHit[id]) errors.push({ id, kind: "headline", truth: t.title, pred, shown: x.headline });
    }
  }
  const evaluate = await tool("score_extraction.mjs", "evaluate");
  const scoreDates = await tool("score_dates.mjs", "scoreDates");
  type Dated = { metrics: { accuracy_day: number }; errors: unknown[] };
  const score = (ids: string[]): { figures: FundusFigures; perDoc: unknown[]; dateErrors: unknown[] } => {
    const sub = pick(truth, ids);
    const body = evaluate(sub, pick(bodies, ids), { bootstrap: 0 }) as {
      result: AebFigures;
      perDoc: unknown[];
    };
    const d = scoreDates(sub, days, { truthField: "publishing_date" }) as Dated;
    const titled = ids.filter((id) => id in titleHit);
    return {
      figures: {
        headline_exact: titled.length ? titled.filter((id) => titleHit[id]).length / titled.length : 0,
        headline_shown_exact: titled.length ? titled.filter((id) => shownHit[id]).length / titled.length : 0,
        authors_exact: ids.length ? ids.filter((id) => authorHit[id]).length / ids.length : 0,
        date_day_accuracy: d.metrics.accuracy_day,
        body_f1: body.result.f1,
        body_precision: body.result.precision,
        body_recall: body.result.recall,
        pages: ids.length,
      },
      perDoc: body.perDoc,
      dateErrors: d.errors,
    };
  };
  const all = score(Object.keys(truth));
  return {
    figures: all.figures,
    sites,
    scoreOn: (ids) => score(ids).figures,
    predictions,
    perDoc: all.perDoc,
    errors: [...errors, ...all.dateErrors],
  };
}

export interface MercuryFigures {
  headline_exact: number;
  headline_ci: number;
  day_accuracy: number;
  author_match: number;
  lead_match: number;
  pages: number;
}

interface MercuryTruth {
  url: string;
  file: string;
  host: string;
}

/** Headline, authors, publication day and body lead on the mercury pages (Postlight Parser's fixtures). */
export async function runMercury(): Promise<SetRun<MercuryFigures>> {
  const dir = path.join(EVAL_DIR, "mercury");
  const truth = readJson<Record<string, MercuryTruth>>(path.join(dir, "ground-truth.json"));
  const predictions: Record<string, Extraction> = {};
  const pred: Record<
    string,
    { headline: string | null; authors: string[]; published_day: string | null; body: string }
  > = {};
  const sites: Record<string, string> = {};
  for (const [id, t] of Object.entries(truth)) {
    const x = extract(path.join(dir, t.file), t.url);
    predictions[id] = x;
    pred[id] = { headline: x.headline, authors: bylineOf(x), published_day: x.published_day, body: x.body };
    sites[id] = siteOf(t.host);
  }
  const scoreMeta = await tool("score_meta.mjs", "scoreMeta");
  type Scored = { metrics: Record<string, number | null>; errors: Record<string, unknown[]> };
  const score = (ids: string[]): Scored => scoreMeta(pick(truth, ids), pred) as Scored;
  const figuresOf = (r: Scored): MercuryFigures => ({
    headline_exact: r.metrics.headline_exact ?? 0,
    headline_ci: r.metrics.headline_ci ?? 0,
    day_accuracy: r.metrics.day_accuracy ?? 0,
    author_match: r.metrics.author_match ?? 0,
    lead_match: r.metrics.lead_match ?? 0,
    pages: r.metrics.pages ?? 0,
  });
  const r = score(Object.keys(truth));
  return {
    figures: figuresOf(r),
    sites,
    scoreOn: (ids) => figuresOf(score(ids)),
    predictions,
    errors: Object.entries(r.errors).flatMap(([kind, list]) => list.map((e) => ({ kind, ...(e as object) }))),
  };
}
