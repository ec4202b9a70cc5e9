/**
 * The seed's MinHash, as described: lower-case [a-z0-9]+ tokens, 5-word shingles, and for every
 * permutation one blake2b hash of (permutation, shingle); the signature keeps each permutation's
 * minimum. One cryptographic hash per permutation per shingle: the cost storytrail avoids.
 */
import { createHash } from "node:crypto";

function seedTokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

export function seedShingles(text: string, k = 5): Set<string> {
  const t = seedTokens(text);
  const out = new Set<string>();
  for (let i = 0; i + k <= t.length; i++) out.add(t.slice(i, i + k).join(" "));
  return out;
}

export function seedSignature(text: string, numPerm = 64): BigUint64Array {
  const sig = new BigUint64Array(numPerm).fill(0xffff_ffff_ffff_ffffn);
  for (const s of seedShingles(text)) {
    for (let p = 0; p < numPerm; p++) {
      const h = createHash("blake2b512").update(`${p}:${s}`).digest().readBigUInt64LE(0);
      if (h < sig[p]!) sig[p] = h;
    }
  }
  return sig;
}
