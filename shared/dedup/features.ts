/**
 * Facts that must agree between two copies of one story: the numbers it states and the names it
 * uses. Templated stories (same wording, other figures and names) and same-topic stories share
 * wording but not these. Kept small: bottom-k sketches (the k smallest token hashes, enough to
 * estimate containment) and the most frequent capitalised tokens.
 */
import type { Tokens } from "./shingles";
import { TOKEN_ENTITY, TOKEN_NUMBER } from "./shingles";

export interface TextFeatures {
  /** Bottom-k of the distinct number-token hashes, ascending. */
  numbers: Uint32Array;
  numberCount: number;
  /** Bottom-k of the distinct entity-token hashes, ascending. */
  entities: Uint32Array;
  entityCount: number;
  /** Most frequent entity tokens (seen at least twice), most frequent first. */
  topEntities: Uint32Array;
}

function bottomK(values: Uint32Array, k: number): Uint32Array {
  const sorted = Uint32Array.from(values).sort();
  let u = 0;
  for (let i = 0; i < sorted.length; i++)
    if (i === 0 || sorted[i] !== sorted[u - 1]) sorted[u++] = sorted[i]!;
  return sorted.slice(0, Math.min(u, k));
}

function distinctCount(values: Uint32Array): number {
  return new Set(values).size;
}

export function extractFeatures(tokens: Tokens, sketchSize: number, topCount: number): TextFeatures {
  const nums: number[] = [];
  const ents = new Map<number, number>();
  for (let i = 0; i < tokens.count; i++) {
    const f = tokens.flags[i]!;
    if (f & TOKEN_NUMBER) nums.push(tokens.hashes[i]!);
    else if (f & TOKEN_ENTITY) {
      const h = tokens.hashes[i]!;
      ents.set(h, (ents.get(h) ?? 0) + 1);
    }
  }
  const numArr = Uint32Array.from(nums);
  const entArr = Uint32Array.from(ents.keys());
  const top = [...ents.entries()]
    .filter(([, c]) => c >= 2)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, topCount)
    .map(([h]) => h);
  return {
    numbers: bottomK(numArr, sketchSize),
    numberCount: distinctCount(numArr),
    entities: bottomK(entArr, sketchSize),
    entityCount: entArr.length,
    topEntities: Uint32Array.from(top),
  };
}

/**
 * Estimated share of the smaller set's items present in the larger one, from two bottom-k sketches
 * (compared only below the point where both sketches are complete). null when there is nothing to
 * compare.
 */
export function sketchContainment(
  a: Uint32Array,
  aCount: number,
  b: Uint32Array,
  bCount: number,
  k: number,
): number | null {
  const [small, smallCount, large, largeCount] =
    aCount <= bCount ? [a, aCount, b, bCount] : [b, bCount, a, aCount];
  if (smallCount === 0) return null;
  let limit = 0xffffffff;
  if (smallCount > k && small.length > 0) limit = Math.min(limit, small[small.length - 1]!);
  if (largeCount > k && large.length > 0) limit = Math.min(limit, large[large.length - 1]!);
  let seen = 0;
  let hit = 0;
  let j = 0;
  for (let i = 0; i < small.length; i++) {
    const v = small[i]!;
    if (v > limit) break;
    seen++;
    while (j < large.length && large[j]! < v) j++;
    if (j < large.length && large[j] === v) hit++;
  }
  return seen === 0 ? null : hit / seen;
}

/** Whether a sorted sketch holds a value (binary search). */
export function sketchHas(sketch: Uint32Array, v: number): boolean {
  let lo = 0;
  let hi = sketch.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = sketch[mid]!;
    if (m === v) return true;
    if (m < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
