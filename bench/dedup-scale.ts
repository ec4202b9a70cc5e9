/**
 * `storytrail dedup` at scale: writes N synthetic articles (~600 words, a third of them copies) to
 * out/dedup/scale-N.jsonl, runs the CLI's code path on it (runDedup over a file stream, its state in the
 * embedded store in a temporary folder; `--memory` for the in-memory store), and reports time and
 * peak RSS.
 *
 *   npx tsx bench/dedup-scale.ts [--n 100000] [--memory]
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { runDedup } from "../shared/dedup/dataset-dedup";
import { LocalStore } from "../shared/local-store/local-store";
import { syntheticArticles } from "./synthetic-articles";

const argv = process.argv.slice(2);
const n = argv.includes("--n") ? Number(argv[argv.indexOf("--n") + 1]) : 100_000;
const dir = path.resolve(import.meta.dirname, "../out/dedup");
const file = path.join(dir, `scale-${n}.jsonl`);

async function writeInput(): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const out = createWriteStream(file);
  for (const a of syntheticArticles(n, 600, 7)) {
    if (!out.write(`${JSON.stringify(a)}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
}

if (!existsSync(file)) await writeInput();
let peak = 0;
const sample = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 50);
const t0 = performance.now();
const c0 = process.cpuUsage();
const stateDir = mkdtempSync(path.join(tmpdir(), "storytrail-dedup-scale-"));
const store = argv.includes("--memory") ? null : LocalStore.open(stateDir);
const result = await runDedup(
  createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY }),
  store ? { store: store.dedup, commit: () => store.commit() } : {},
);
await store?.close();
rmSync(stateDir, { recursive: true, force: true });
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(c0);
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage.rss());
const clusters = new Set(result.assignments.map((a) => a.cluster_id)).size;
console.log(
  `${result.assignments.length} articles → ${clusters} clusters in ${wall.toFixed(1)} s wall, ` +
    `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU; peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB`,
);
