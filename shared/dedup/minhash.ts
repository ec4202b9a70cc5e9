/**
 * MinHash over 32-bit shingle hashes. Each shingle is hashed once (shingles.ts); permutation i is
 * derived arithmetically as fmix32(x XOR seed_i): a bijection of the 32-bit space per seed, two
 * Math.imul and three shifts, no allocation. Seeds come from splitmix32(seed), so a signature is
 * the same in every process and version that uses the same parameters (recorded in the fingerprint).
 */
import { splitmix32 } from "./hash";

export const EMPTY_SLOT = 0xffffffff;

const seedCache = new Map<string, Uint32Array>();

/** Per-permutation seeds for (numPerm, seed). */
export function permutationSeeds(numPerm: number, seed: number): Uint32Array {
  const key = `${numPerm}:${seed}`;
  let seeds = seedCache.get(key);
  if (!seeds) {
    const next = splitmix32(seed);
    seeds = new Uint32Array(numPerm);
    for (let i = 0; i < numPerm; i++) seeds[i] = next();
    seedCache.set(key, seeds);
  }
  return seeds;
}

/** Signature of a set of distinct shingle hashes: min of every permutation (EMPTY_SLOT for an empty set). */
export function minhashSignature(shingles: Uint32Array, numPerm: number, seed: number): Uint32Array {
  const seeds = permutationSeeds(numPerm, seed);
  const sig = new Uint32Array(numPerm);
  const n = shingles.length;
  for (let p = 0; p < numPerm; p++) {
    const s = seeds[p]!;
    let min = EMPTY_SLOT;
    for (let j = 0; j < n; j++) {
      let h = shingles[j]! ^ s;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h = (h ^ (h >>> 16)) >>> 0;
      if (h < min) min = h;
    }
    sig[p] = min;
  }
  return sig;
}

/** Estimated Jaccard similarity: share of equal slots (signatures of the same parameters). */
export function estimateJaccard(a: Uint32Array, b: Uint32Array): number {
  const n = Math.min(a.length, b.length);
  if (n === 0) return 0;
  let eq = 0;
  for (let i = 0; i < n; i++) if (a[i] === b[i] && a[i] !== EMPTY_SLOT) eq++;
  return eq / n;
}

/**
 * Estimated containment of set A in set B (share of A's shingles that B has) from the signatures
 * and the set sizes. A slot where A's minimum is below B's means the minimum of A∪B lies in A\B,
 * which happens with probability |A\B|/|A∪B|; |A∪B| = (|A|+|B|)/(1+J). When A is nearly contained
 * this count is near zero, so the estimate is much tighter than one derived from J alone.
 */
export function estimateContainment(
  sigA: Uint32Array,
  sigB: Uint32Array,
  sizeA: number,
  sizeB: number,
): number {
  const n = Math.min(sigA.length, sigB.length);
  if (n === 0 || sizeA === 0) return 0;
  let below = 0;
  let equal = 0;
  for (let i = 0; i < n; i++) {
    const a = sigA[i]!;
    const b = sigB[i]!;
    if (a < b) below++;
    else if (a === b && a !== EMPTY_SLOT) equal++;
  }
  const union = (sizeA + sizeB) / (1 + equal / n);
  return Math.max(0, Math.min(1, 1 - ((below / n) * union) / sizeA));
}
