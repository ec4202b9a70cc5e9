/**
 * What an import did, record by record, in counts that add up:
 * records = articles + Σ skipped + errors.
 */
import type { SkipReason } from "./warc-pages";

/** A page read fine but not kept as an article (the fetcher's own reason, e.g. thin_content). */
export type SkipKind = SkipReason | "thin_content" | (string & {});

export interface ImportProblem {
  readonly file: string;
  readonly offset: number;
  readonly detail: string;
}

export interface ImportSummary {
  files: number;
  /** Files a checkpoint marked as fully imported before this run: passed over. */
  files_already_imported: number;
  records: number;
  articles: number;
  /** Of the articles, those read from a record the archive cut short (`WARC-Truncated`, or the file
   * ends inside it): each is stored with "body" in its `truncated` list. */
  truncated_articles: number;
  skipped: Record<string, number>;
  errors: number;
  /** The first errors, each with its file and byte offset (all are counted in `errors`). */
  problems: ImportProblem[];
}

/** Errors listed one by one; past this, only counted. */
const MAX_PROBLEMS = 100;

export function emptySummary(): ImportSummary {
  return {
    files: 0,
    files_already_imported: 0,
    records: 0,
    articles: 0,
    truncated_articles: 0,
    skipped: {},
    errors: 0,
    problems: [],
  };
}

export function countArticle(s: ImportSummary, truncated = false): void {
  s.records++;
  s.articles++;
  if (truncated) s.truncated_articles++;
}

export function countSkipped(s: ImportSummary, kind: SkipKind): void {
  s.records++;
  s.skipped[kind] = (s.skipped[kind] ?? 0) + 1;
}

export function countError(s: ImportSummary, problem: ImportProblem): void {
  s.records++;
  s.errors++;
  if (s.problems.length < MAX_PROBLEMS) s.problems.push(problem);
}

/** Adds `b` into `a` (a resumed file's earlier counts, or one file's into the run's). */
export function addSummary(a: ImportSummary, b: ImportSummary): void {
  a.files += b.files;
  a.files_already_imported += b.files_already_imported;
  a.records += b.records;
  a.articles += b.articles;
  // A checkpoint written before the count existed has none.
  a.truncated_articles += b.truncated_articles ?? 0;
  a.errors += b.errors;
  for (const [k, n] of Object.entries(b.skipped)) a.skipped[k] = (a.skipped[k] ?? 0) + n;
  a.problems.push(...b.problems.slice(0, Math.max(0, MAX_PROBLEMS - a.problems.length)));
}

export function skippedTotal(s: ImportSummary): number {
  return Object.values(s.skipped).reduce((a, b) => a + b, 0);
}
