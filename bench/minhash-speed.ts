/**
 * MinHash speed, text → signature, over the dedup dev corpus texts, one core, in the same run:
 * storytrail (shingles + signature, and the whole fingerprint), the seed's per-permutation blake2b
 * (64 permutations) and a datasketch-equivalent (SHA-1 once, then (a·x + b) mod 2^61 − 1; 128).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { EVAL_DIR } from "../scripts/eval-sets";
import { computeFingerprint } from "../shared/dedup/fingerprint";
import { minhashPermutations, minhashSignature } from "../shared/dedup/minhash";
import { normaliseText } from "../shared/dedup/normalise-text";
import { fingerprintParams } from "../shared/dedup/params";
import { Shingler } from "../shared/dedup/shingles";
import { datasketchPermutations, datasketchSignature } from "./datasketch-minhash";
import { seedSignature } from "./seed-minhash";
import { interleaved } from "./table";

export interface MinhashSpeed {
  texts: number;
  meanWords: number;
  rows: {
    name: string;
    perms: number;
    articlesPerCpuSecond: number;
    articlesPerSecond: number;
    vsStorytrail: number;
  }[];
}

export function benchMinhash(opts: {
  texts: number;
  slowTexts: number;
  seedTexts: number;
  rounds: number;
}): MinhashSpeed {
  const all = readFileSync(path.join(EVAL_DIR, "dedup/corpus-dev.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { text: string }).text);
  const texts = all.slice(0, opts.texts);
  // The others are 50-500× slower: they get fewer texts per round (rates are per article either way).
  const slowTexts = all.slice(0, opts.slowTexts);
  const seedTexts = all.slice(0, opts.seedTexts);
  const { numPerm, seed, shingleSize } = fingerprintParams;
  const perms = datasketchPermutations(128);
  const ours = minhashPermutations(numPerm, seed);
  // One Shingler per contender, as a caller computing many fingerprints keeps (runDedup).
  const shingler = new Shingler();
  const fpShingler = new Shingler();
  const pass = (list: string[], fn: (t: string) => unknown) => () => {
    for (const t of list) fn(t);
    return list.length;
  };
  const contenders = [
    {
      name: "storytrail signature",
      perms: numPerm,
      round: pass(texts, (t) =>
        minhashSignature(shingler.shingleHashes(shingler.scanTokens(normaliseText(t)), shingleSize), ours),
      ),
    },
    {
      name: "storytrail computeFingerprint",
      perms: numPerm,
      round: pass(texts, (t) => computeFingerprint(t, null, fpShingler)),
    },
    {
      name: "datasketch-equivalent",
      perms: 128,
      round: pass(slowTexts, (t) => datasketchSignature(t, perms)),
    },
    {
      name: "seed (blake2b per permutation)",
      perms: 64,
      round: pass(seedTexts, (t) => seedSignature(t, 64)),
    },
  ];
  const results = interleaved(contenders, opts.rounds);
  const base = results.get("storytrail signature")!.cpuRate;
  return {
    texts: texts.length,
    meanWords: texts.reduce((s, t) => s + t.split(/\s+/).length, 0) / texts.length,
    rows: contenders.map((c) => {
      const r = results.get(c.name)!;
      return {
        name: c.name,
        perms: c.perms,
        articlesPerCpuSecond: r.cpuRate,
        articlesPerSecond: r.wallRate,
        vsStorytrail: r.cpuRate / base,
      };
    }),
  };
}
