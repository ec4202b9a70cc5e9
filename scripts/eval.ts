/**
 * `npm run eval`: extraction figures on the developer evaluation sets in ../shared/eval, each printed twice:
 * on all dev pages, and per site-grouped fold (scripts/eval-folds.ts) with the folds' mean, spread and worst
 * fold. A rule change is kept when the held-out folds improve, not when the dev figure does. Each set also
 * prints how often the fields it has no truth for are found (scripts/eval-found.ts: no set labels a kicker).
 * Options: `--set aeb|trafilatura|dates|fundus|mercury` (repeatable); `--out DIR` writes predictions, per-page
 * diagnostics and `folds.json` there; `--compare FILE` (a previous `folds.json`) prints each fold's change;
 * `--hide-fold N` leaves fold N's pages out of what `--out` writes (docs/extraction.md: the fold a rule is
 * judged on is not read while writing it), while its figures are still printed.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { assignFolds, FOLDS, formatSpread, perFold, type Spread } from "./eval-folds";
import { FOUND_METRICS, foundShares } from "./eval-found";
import {
  EVAL_DIR,
  evalDataAvailable,
  runAeb,
  runDates,
  runFundus,
  runMercury,
  runTrafilatura,
  SET_NAMES,
  type SetName,
  type SetRun,
} from "./eval-sets";
import { tuneH1Match } from "./eval-tuning";

const { values } = parseArgs({
  options: {
    set: { type: "string", multiple: true },
    out: { type: "string" },
    compare: { type: "string" },
    "hide-fold": { type: "string" },
  },
});

if (!evalDataAvailable()) {
  console.error(`evaluation data not found at ${EVAL_DIR}`);
  process.exit(2);
}

const sets = (values.set ?? [...SET_NAMES]) as SetName[];
const f = (x: number): string => x.toFixed(3);

/** The figures each set is judged by, the ones printed per fold. */
const FOLD_METRICS: Record<SetName, string[]> = {
  aeb: ["f1", "accuracy"],
  trafilatura: ["f1", "headline_exact"],
  dates: ["accuracy_day"],
  fundus: ["headline_exact", "headline_shown_exact", "date_day_accuracy", "body_f1", "authors_exact"],
  mercury: ["headline_exact", "author_match", "day_accuracy", "lead_match"],
};

type FoldReport = Record<string, { dev: number; folds: Spread }>;
const report: Record<string, FoldReport> = {};
const before: Record<string, FoldReport> = values.compare
  ? (JSON.parse(readFileSync(values.compare, "utf8")) as Record<string, FoldReport>)
  : {};

const hiddenFold = values["hide-fold"] === undefined ? null : Number(values["hide-fold"]);
if (hiddenFold !== null && !(Number.isInteger(hiddenFold) && hiddenFold >= 0 && hiddenFold < FOLDS)) {
  console.error(`--hide-fold takes a fold number from 0 to ${FOLDS - 1}`);
  process.exit(2);
}

function save(name: string, run: SetRun<unknown>): void {
  if (!values.out) return;
  mkdirSync(values.out, { recursive: true });
  const hidden = new Set(hiddenFold === null ? [] : assignFolds(run.sites)[hiddenFold]);
  const shown = (d: unknown): boolean => !hidden.has(String((d as { id?: unknown }).id));
  const predictions = Object.fromEntries(Object.entries(run.predictions).filter(([id]) => !hidden.has(id)));
  writeFileSync(path.join(values.out, `${name}-pred.json`), JSON.stringify(predictions, null, 1));
  if (run.perDoc)
    writeFileSync(
      path.join(values.out, `${name}-per-doc.jsonl`),
      run.perDoc
        .filter(shown)
        .map((d) => JSON.stringify(d))
        .join("\n"),
    );
  if (run.errors)
    writeFileSync(
      path.join(values.out, `${name}-errors.json`),
      JSON.stringify(run.errors.filter(shown), null, 1),
    );
}

function folds<F>(name: SetName, run: SetRun<F>): void {
  const groups = assignFolds(run.sites);
  const sites = new Set(Object.values(run.sites)).size;
  const metrics = FOLD_METRICS[name];
  const score = (ids: string[]) => run.scoreOn(ids) as unknown as Record<string, number>;
  const spreads = perFold(groups, score, metrics);
  const dev = run.figures as unknown as Record<string, number>;
  console.log(
    `  ${groups.length} folds by site (${sites} sites; pages ${groups.map((g) => g.length).join("/")})`,
  );
  report[name] = {};
  // Beside the scored figures, how often each field is found (the fields the set has no truth for).
  const found = perFold(groups, (ids) => foundShares(run.predictions, ids), FOUND_METRICS);
  const foundDev = foundShares(run.predictions);
  for (const m of [...metrics, ...FOUND_METRICS]) {
    const s = spreads[m] ?? found[m]!;
    const devFigure = dev[m] ?? foundDev[m] ?? 0;
    report[name][m] = { dev: devFigure, folds: s };
    console.log(`  ${formatSpread(m, devFigure, s)}`);
    const was = before[name]?.[m];
    if (was) {
      const d = (x: number): string => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
      const perFoldDelta = s.folds.map((v, i) => d(v - (was.folds.folds[i] ?? 0))).join(" ");
      console.log(
        `  ${"".padEnd(18)} vs before: dev ${d(devFigure - was.dev)}  folds mean ${d(s.mean - was.folds.mean)}  [${perFoldDelta}]`,
      );
    }
  }
}

for (const set of sets) {
  const t0 = performance.now();
  if (set === "aeb") {
    const r = await runAeb();
    const x = r.figures;
    console.log(
      `aeb          F1 ${f(x.f1)}  P ${f(x.precision)}  R ${f(x.recall)}  accuracy ${f(x.accuracy)}  (${x.pages} pages)`,
    );
    folds(set, r);
    save(set, r);
  } else if (set === "trafilatura") {
    const r = await runTrafilatura();
    const x = r.figures;
    console.log(
      `trafilatura  segments P ${f(x.precision)}  R ${f(x.recall)}  F1 ${f(x.f1)}  accuracy ${f(x.accuracy)}  headline exact ${f(x.headline_exact)} (${x.titled} titled)  (${x.pages} pages)`,
    );
    folds(set, r);
    save(set, r);
  } else if (set === "dates") {
    const r = await runDates();
    const x = r.figures;
    console.log(`dates        day accuracy ${f(x.accuracy_day)}  (${x.correct}/${x.with_date})`);
    folds(set, r);
    save(set, r);
  } else if (set === "fundus") {
    const r = await runFundus();
    const x = r.figures;
    console.log(
      `fundus       headline_declared ?? headline exact ${f(x.headline_exact)}  shown ${f(x.headline_shown_exact)}  authors exact ${f(x.authors_exact)}  date day accuracy ${f(x.date_day_accuracy)}  body F1 ${f(x.body_f1)}  P ${f(x.body_precision)}  R ${f(x.body_recall)}  (${x.pages} pages)`,
    );
    folds(set, r);
    save(set, r);
  } else if (set === "mercury") {
    const r = await runMercury();
    const x = r.figures;
    console.log(
      `mercury      headline exact ${f(x.headline_exact)}  ci ${f(x.headline_ci)}  author match ${f(x.author_match)}  day accuracy ${f(x.day_accuracy)}  lead match ${f(x.lead_match)}  (${x.pages} pages)`,
    );
    folds(set, r);
    save(set, r);
  }
  console.error(`  (${set}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

if (sets.includes("mercury") || sets.includes("fundus")) {
  // A tunable setting: tuned on four folds, scored on the fifth. The held-out mean is the figure to trust.
  const t = tuneH1Match();
  const fmt = (xs: number[]): string => xs.map(f).join(" ");
  console.log(`tuning       ${t.name} (${t.pages} pages)`);
  console.log(
    `  in the code ${t.currentValue}: dev ${f(t.current.mean)} [${fmt(t.current.folds)}]; rule off: [${fmt(t.without.folds)}] mean ${f(t.without.mean)}`,
  );
  console.log(
    `  tuned on the other folds: held-out mean ${f(t.cv.heldOut.mean)} ±${f(t.cv.heldOut.sd)} [${fmt(t.cv.heldOut.folds)}], chosen [${t.cv.chosen.join(" ")}]; tuned on all pages: ${t.cv.devBest} → dev ${f(t.cv.dev)}`,
  );
}

if (values.out) writeFileSync(path.join(values.out, "folds.json"), JSON.stringify(report, null, 1));
