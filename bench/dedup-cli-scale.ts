/**
 * `storytrail dedup` at 10k … 200k articles: the CLI in a child process under /usr/bin/time -v (peak
 * RSS from the kernel), inputs generated deterministically (bench/synthetic-articles.ts: news-like
 * text, a third of it near-duplicate copies) into out/bench/. Shows how time and memory grow.
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { syntheticArticles } from "./synthetic-articles";

const ROOT = path.resolve(import.meta.dirname, "..");
const WORDS = 500;

export interface DedupScaleRow {
  articles: number;
  inputMb: number;
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  articlesPerSecond: number;
  /** Per-article time and memory relative to the smallest size (1 = perfectly linear). */
  timePerArticleVsFirst: number;
  rssPerArticleVsFirst: number;
}

async function ensureInput(n: number): Promise<string> {
  const dir = path.join(ROOT, "out/bench");
  const file = path.join(dir, `dedup-${n}-w${WORDS}.jsonl`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.tmp`;
  const out = createWriteStream(tmp);
  for (const a of syntheticArticles(n, WORDS, 7)) {
    if (!out.write(`${JSON.stringify(a)}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  renameSync(tmp, file);
  return file;
}

function timeCli(file: string): Promise<{ wall: number; cpu: number; rssKb: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "/usr/bin/time",
      ["-v", process.execPath, "bin/storytrail.js", "dedup", "--input", file],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let lines = 0;
    let err = "";
    child.stdout.on("data", (b: Buffer) => {
      for (const c of b) if (c === 10) lines++;
    });
    child.stderr.on("data", (b: Buffer) => {
      err += b.toString();
      if (err.length > 1 << 20) err = err.slice(-(1 << 16));
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const num = (re: RegExp) => Number(re.exec(err)?.[1] ?? Number.NaN);
      const wallText = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/.exec(err)?.[1] ?? "";
      const wall = wallText.split(":").reduce((s, p) => s * 60 + Number(p), 0);
      if (code !== 0) return reject(new Error(`storytrail dedup exited ${code}: ${err.slice(-500)}`));
      resolve({
        wall,
        cpu: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
        rssKb: num(/Maximum resident set size \(kbytes\): (\d+)/),
        lines,
      });
    });
  });
}

export async function benchDedupScale(
  sizes: readonly number[],
  log: (s: string) => void,
): Promise<DedupScaleRow[]> {
  const rows: DedupScaleRow[] = [];
  for (const n of sizes) {
    const file = await ensureInput(n);
    log(`  dedup ${n}: ${(statSync(file).size / 1e6).toFixed(0)} MB input`);
    const r = await timeCli(file);
    if (r.lines !== n) throw new Error(`storytrail dedup printed ${r.lines} lines for ${n} articles`);
    const first = rows[0];
    rows.push({
      articles: n,
      inputMb: statSync(file).size / 1e6,
      wallSeconds: r.wall,
      cpuSeconds: r.cpu,
      peakRssMb: r.rssKb / 1024,
      articlesPerSecond: n / r.wall,
      timePerArticleVsFirst: first ? r.cpu / n / (first.cpuSeconds / first.articles) : 1,
      rssPerArticleVsFirst: first ? r.rssKb / 1024 / n / (first.peakRssMb / first.articles) : 1,
    });
  }
  return rows;
}
