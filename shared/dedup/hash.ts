/**
 * 32-bit non-cryptographic hashing with Math.imul: cheap, deterministic in every JS engine and
 * process, no allocation. Tokens are hashed once (FNV-1a over UTF-16 code units, then the murmur3
 * finaliser for avalanche); shingles combine token hashes with the murmur3 block step; MinHash
 * permutations are derived from the shingle hash (see minhash.ts).
 */

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** murmur3 finaliser: a bijection on 32 bits with full avalanche. */
export function fmix32(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** murmur3 block step: folds one 32-bit word into a running hash. */
export function mixStep(h: number, word: number): number {
  let k = Math.imul(word, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  let r = h ^ k;
  r = (r << 13) | (r >>> 19);
  return (Math.imul(r, 5) + 0xe6546b64) | 0;
}

/** splitmix32: deterministic stream of 32-bit values from a seed (permutation parameters). */
export function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}
