/**
 * `npm run eval`: extraction figures on the four developer evaluation sets in ../shared/eval.
 * Options: `--set aeb|trafilatura|dates|fundus` (repeatable), `--out DIR` writes predictions and per-page
 * diagnostics there.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  EVAL_DIR,
  evalDataAvailable,
  runAeb,
  runDates,
  runFundus,
  runTrafilatura,
  SET_NAMES,
  type SetName,
  type SetRun,
} from "./eval-sets";

const { values } = parseArgs({
  options: { set: { type: "string", multiple: true }, out: { type: "string" } },
});

if (!evalDataAvailable()) {
  console.error(`evaluation data not found at ${EVAL_DIR}`);
  process.exit(2);
}

const sets = (values.set ?? [...SET_NAMES]) as SetName[];
const f = (x: number): string => x.toFixed(3);

function save(name: string, run: SetRun<unknown>): void {
  if (!values.out) return;
  mkdirSync(values.out, { recursive: true });
  writeFileSync(path.join(values.out, `${name}-pred.json`), JSON.stringify(run.predictions, null, 1));
  if (run.perDoc)
    writeFileSync(
      path.join(values.out, `${name}-per-doc.jsonl`),
      run.perDoc.map((d) => JSON.stringify(d)).join("\n"),
    );
  if (run.errors)
    writeFileSync(path.join(values.out, `${name}-errors.json`), JSON.stringify(run.errors, null, 1));
}

for (const set of sets) {
  const t0 = performance.now();
  if (set === "aeb") {
    const r = await runAeb();
    const x = r.figures;
    console.log(
      `aeb          F1 ${f(x.f1)}  P ${f(x.precision)}  R ${f(x.recall)}  accuracy ${f(x.accuracy)}  (${x.pages} pages)`,
    );
    save(set, r);
  } else if (set === "trafilatura") {
    const r = await runTrafilatura();
    const x = r.figures;
    console.log(
      `trafilatura  segments P ${f(x.precision)}  R ${f(x.recall)}  F1 ${f(x.f1)}  accuracy ${f(x.accuracy)}  (${x.pages} pages)`,
    );
    save(set, r);
  } else if (set === "dates") {
    const r = await runDates();
    const x = r.figures;
    console.log(`dates        day accuracy ${f(x.accuracy_day)}  (${x.correct}/${x.with_date})`);
    save(set, r);
  } else if (set === "fundus") {
    const r = await runFundus();
    const x = r.figures;
    console.log(
      `fundus       headline exact ${f(x.headline_exact)}  authors exact ${f(x.authors_exact)}  date day accuracy ${f(x.date_day_accuracy)}  body F1 ${f(x.body_f1)}  P ${f(x.body_precision)}  R ${f(x.body_recall)}  (${x.pages} pages)`,
    );
    save(set, r);
  }
  console.error(`  (${set}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
