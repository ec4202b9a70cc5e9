/**
 * Fingerprint speed: text → fingerprint (normalise, tokens, 5-token shingles, 128-permutation
 * MinHash, lede signature, fact sketches) on ~600-word articles, one core.
 *
 *   npx tsx bench/minhash.ts [--n 5000]
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { computeFingerprint } from "../shared/dedup/fingerprint";
import { minhashPermutations, minhashSignature } from "../shared/dedup/minhash";
import { normaliseText } from "../shared/dedup/normalise-text";
import { Shingler } from "../shared/dedup/shingles";
import { syntheticArticles } from "./synthetic-articles";

const argv = process.argv.slice(2);
const n = argv.includes("--n") ? Number(argv[argv.indexOf("--n") + 1]) : 5000;

function loadTexts(): string[] {
  const dev = path.resolve(import.meta.dirname, "../../shared/eval/dedup/corpus-dev.jsonl");
  try {
    const texts = readFileSync(dev, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { text: string }).text)
      .filter((t) => t.split(/\s+/).length >= 450 && t.split(/\s+/).length <= 750);
    if (texts.length > 50) return texts;
  } catch {
    // eval data absent: synthetic text
  }
  return [...syntheticArticles(500, 600, 1)].map((a) => a.text);
}

const texts = loadTexts();
const words = texts.reduce((s, t) => s + t.split(/\s+/).length, 0) / texts.length;
const run = (label: string, fn: (t: string) => unknown): void => {
  for (let i = 0; i < 300; i++) fn(texts[i % texts.length]!); // warm-up
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) fn(texts[i % texts.length]!);
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e6;
  // CPU time is the one-core figure when the machine is shared; wall time is shown too.
  console.log(
    `${label.padEnd(40)} ${(n / cpu).toFixed(0).padStart(7)} articles/s per CPU-second  (${(n / wall).toFixed(0)}/s wall)`,
  );
};
console.log(`${texts.length} texts, mean ${words.toFixed(0)} words; ${n} iterations`);
// One Shingler for the whole run, as a caller computing many fingerprints keeps (runDedup).
const shingler = new Shingler();
const shingles = (t: string) => shingler.shingleHashes(shingler.scanTokens(normaliseText(t)), 5);
run("tokens + shingles only", shingles);
const perms = minhashPermutations(128, 1);
run("signature (128 perms)", (t) => minhashSignature(shingles(t), perms));
run("full fingerprint (computeFingerprint)", (t) => computeFingerprint(t, null, shingler));
