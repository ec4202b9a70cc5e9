/**
 * Dedup evaluation: clusters the developer corpus and a few generated corpora (other seeds, the
 * held-out-like `--n 700` sizes, and one built from other articles: the multilingual fundus bodies)
 * with the same code path as `storytrail dedup`, then prints the scorer's figures.
 *
 *   npx tsx scripts/eval-dedup.ts [--only NAME] [--diag]
 *
 * Generated corpora and predictions are written under out/dedup/. Needs ../shared (eval data and
 * tools) beside the repository; the product never does.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compareFingerprints } from "../shared/dedup/confirm";
import { runDedup } from "../shared/dedup/dataset-dedup";
import { computeFingerprint, viewFingerprint } from "../shared/dedup/fingerprint";
import { bandKeys } from "../shared/dedup/lsh";
import { fingerprintParams, matchParams } from "../shared/dedup/params";

const root = path.resolve(import.meta.dirname, "..");
const shared = path.resolve(root, "../shared");
const tools = path.join(shared, "tools/dedup");
const outDir = path.join(root, "out/dedup");
const devBase = path.join(shared, "eval/dedup/base_articles-dev.jsonl");

interface Corpus {
  name: string;
  file: string;
  make?: { base: string; n: number; seed: number; minWords?: number };
}

const corpora: Corpus[] = [
  { name: "dev", file: path.join(shared, "eval/dedup/corpus-dev.jsonl") },
  {
    name: "s7-n1500",
    file: path.join(outDir, "corpus-s7-n1500.jsonl"),
    make: { base: devBase, n: 1500, seed: 7 },
  },
  {
    name: "s11-n700",
    file: path.join(outDir, "corpus-s11-n700.jsonl"),
    make: { base: devBase, n: 700, seed: 11 },
  },
  {
    name: "s23-n700",
    file: path.join(outDir, "corpus-s23-n700.jsonl"),
    make: { base: devBase, n: 700, seed: 23 },
  },
  {
    name: "fundus-n700",
    file: path.join(outDir, "corpus-fundus-s5-n700.jsonl"),
    make: { base: path.join(outDir, "base-fundus.jsonl"), n: 700, seed: 5, minWords: 100 },
  },
];

/** Base articles from another source: fundus's multilingual parser-test bodies. */
function makeFundusBase(file: string): void {
  const gt = JSON.parse(
    readFileSync(path.join(shared, "eval/fundus-parser-tests/ground-truth.json"), "utf8"),
  ) as Record<string, { title?: string; articleBody?: string }>;
  const lines = Object.entries(gt).map(([id, a]) => {
    const paragraphs = (a.articleBody ?? "").split(/\n\s*\n/).filter((p) => p.trim().length > 0);
    const words = (a.articleBody ?? "").toLowerCase().match(/[a-z0-9]+/g)?.length ?? 0;
    return JSON.stringify({ id: `fundus:${id}`, title: a.title ?? "", paragraphs, words });
  });
  writeFileSync(file, `${lines.join("\n")}\n`);
}

function ensureCorpus(c: Corpus): void {
  if (existsSync(c.file) || !c.make) return;
  if (!existsSync(c.make.base)) makeFundusBase(c.make.base);
  const args = [path.join(tools, "make_corpus.mjs"), "--base", c.make.base, "--n", String(c.make.n)];
  args.push("--seed", String(c.make.seed), "--out", c.file);
  if (c.make.minWords) args.push("--min-words", String(c.make.minWords));
  const r = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`make_corpus failed: ${r.stderr}`);
}

interface TruthDoc {
  id: string;
  kind: string;
  parent: string | null;
  edits?: string[];
  title: string;
  text: string;
}

/** Why truth pairs (copy–parent, negative–parent) were or were not linked directly. */
function diagnose(docs: TruthDoc[]): void {
  const fp = new Map(docs.map((d) => [d.id, viewFingerprint(computeFingerprint(d.text, d.title))]));
  const rows: Record<string, Record<string, number>> = {};
  for (const d of docs) {
    if (!d.parent) continue;
    const a = fp.get(d.id)!;
    const b = fp.get(d.parent)!;
    const keysOf = (v: typeof a) => [
      ...bandKeys(v.sig, matchParams.bands, matchParams.rows),
      ...bandKeys(v.lede, matchParams.ledeBands, matchParams.ledeRows, 1000),
    ];
    const ka = new Set(keysOf(a));
    const cand = keysOf(b).some((k) => ka.has(k));
    const r = compareFingerprints(a, b, matchParams, fingerprintParams.sketchSize);
    const tags =
      d.kind === "syndicated"
        ? (d.edits ?? []).filter((e) => e === "truncate" || e.endsWith("paragraphs"))
        : [];
    const key = `${d.kind}${tags.length ? `[${tags.join(",")}]` : ""}`;
    rows[key] ??= {};
    const outcome = `${cand ? "cand" : "nocand"}:${r.reason}`;
    rows[key][outcome] = (rows[key][outcome] ?? 0) + 1;
  }
  for (const [k, v] of Object.entries(rows).sort()) console.log(`  ${k.padEnd(60)} ${JSON.stringify(v)}`);
}

async function* linesOf(file: string): AsyncIterable<string> {
  for (const line of readFileSync(file, "utf8").split("\n")) yield line;
}

interface Score {
  pairwise: { precision: number; recall: number; f1: number };
  bcubed: { precision: number; recall: number; f1: number };
  diagnostics?: {
    copy_recall_by_edit: Record<string, { rate: number; n: number }>;
    false_merge_rate_by_negative_kind: Record<string, { rate: number; n: number }>;
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1] : undefined;
  const diag = argv.includes("--diag");
  if (!existsSync(tools)) {
    console.error(`eval-dedup: ${tools} not found (../shared must sit beside the repository)`);
    process.exit(2);
  }
  mkdirSync(outDir, { recursive: true });
  for (const c of corpora) {
    if (only && c.name !== only) continue;
    ensureCorpus(c);
    const t0 = performance.now();
    const { assignments } = await runDedup(linesOf(c.file));
    const ms = performance.now() - t0;
    const pred = path.join(outDir, `pred-${c.name}.jsonl`);
    writeFileSync(pred, `${assignments.map((a) => JSON.stringify(a)).join("\n")}\n`);
    const json = path.join(outDir, `score-${c.name}.json`);
    const r = spawnSync(
      process.execPath,
      [path.join(tools, "score_clusters.mjs"), "--truth", c.file, "--pred", pred, "--json", json],
      { encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`scorer failed: ${r.stderr}`);
    const s = JSON.parse(readFileSync(json, "utf8")) as Score;
    const f = (x: number) => x.toFixed(4);
    const neg = s.diagnostics?.false_merge_rate_by_negative_kind ?? {};
    const negText = Object.entries(neg)
      .map(([k, v]) => `${k} ${(v.rate * 100).toFixed(1)}% of ${v.n}`)
      .join(", ");
    console.log(
      `${c.name.padEnd(12)} docs=${assignments.length} pairwise P=${f(s.pairwise.precision)} R=${f(s.pairwise.recall)} F1=${f(s.pairwise.f1)}` +
        `  b3 P=${f(s.bcubed.precision)} R=${f(s.bcubed.recall)} F1=${f(s.bcubed.f1)}  (${(ms / 1000).toFixed(1)} s)`,
    );
    console.log(`${"".padEnd(12)} false merges: ${negText}`);
    const weak = Object.entries(s.diagnostics?.copy_recall_by_edit ?? {})
      .filter(([, v]) => v.rate < 0.99)
      .map(([k, v]) => `${k} ${(v.rate * 100).toFixed(1)}%`)
      .join(", ");
    if (weak) console.log(`${"".padEnd(12)} copy recall < 99%: ${weak}`);
    if (diag) {
      const docs = readFileSync(c.file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TruthDoc);
      diagnose(docs);
    }
  }
}

await main();
