/**
 * Facts that must agree between two copies of one story: the numbers it states and the names it
 * uses. Templated stories (same wording, other figures and names) and same-topic stories share
 * wording but not these. Kept small: bottom-k sketches (the k smallest token hashes, enough to
 * estimate containment) and the most frequent capitalised tokens.
 */
import { fmix32, mixStep } from "./hash";
import type { Tokens } from "./shingles";
import { TOKEN_ENTITY, TOKEN_NUMBER } from "./shingles";

export interface TextFeatures {
  numberCount: number;
  /** Bottom-k of the distinct entity-token hashes, ascending. */
  entities: Uint32Array;
  entityCount: number;
  /** Most frequent entity tokens (seen at least twice), most frequent first. */
  topEntities: Uint32Array;
  /** Number facts: context hashes (bottom-k, ascending) and the number seen in each context. */
  numberContexts: Uint32Array;
  numberValues: Uint32Array;
  /** Entity facts: context hashes (bottom-k, ascending) and the name seen in each context. */
  entityContexts: Uint32Array;
  entityValues: Uint32Array;
}

const MASK_NUMBER = 0x6e756d31;
const MASK_ENTITY = 0x656e7431;
const MASK_EDGE = 0x65646731;

function maskedToken(tokens: Tokens, i: number): number {
  if (i < 0 || i >= tokens.count) return MASK_EDGE;
  const f = tokens.flags[i]!;
  if (f & TOKEN_NUMBER) return MASK_NUMBER;
  if (f & TOKEN_ENTITY) return MASK_ENTITY;
  return tokens.hashes[i]!;
}

/**
 * Facts: each number (or entity) token keyed by its context, the two tokens either side with every
 * number and entity masked. Two texts that share wording share contexts; a copy states the same
 * fact in a shared context, a templated story another one. Bottom-k by context hash.
 */
function facts(tokens: Tokens, flag: number, k: number): { contexts: Uint32Array; values: Uint32Array } {
  const byContext = new Map<number, number>();
  for (let i = 0; i < tokens.count; i++) {
    if (!(tokens.flags[i]! & flag)) continue;
    let h = mixStep(0x3c6ef372 ^ flag, maskedToken(tokens, i - 2));
    h = mixStep(h, maskedToken(tokens, i - 1));
    h = mixStep(h, maskedToken(tokens, i + 1));
    h = mixStep(h, maskedToken(tokens, i + 2));
    const ctx = fmix32(h);
    const v = tokens.hashes[i]!;
    const prev = byContext.get(ctx);
    // A context seen twice keeps the smaller value: the same multiset gives the same choice.
    if (prev === undefined || v < prev) byContext.set(ctx, v);
  }
  const ctxs = Uint32Array.from(byContext.keys()).sort().slice(0, k);
  const values = new Uint32Array(ctxs.length);
  for (let i = 0; i < ctxs.length; i++) values[i] = byContext.get(ctxs[i]!)!;
  return { contexts: ctxs, values };
}

/**
 * Facts found in both texts' shared contexts, and how many of them state the same value.
 * Compared only below the point where both bottom-k sketches are complete.
 */
export function factAgreement(
  aCtx: Uint32Array,
  aVal: Uint32Array,
  bCtx: Uint32Array,
  bVal: Uint32Array,
  k: number,
): { shared: number; agree: number } {
  let limit = 0xffffffff;
  if (aCtx.length >= k && aCtx.length > 0) limit = Math.min(limit, aCtx[aCtx.length - 1]!);
  if (bCtx.length >= k && bCtx.length > 0) limit = Math.min(limit, bCtx[bCtx.length - 1]!);
  let i = 0;
  let j = 0;
  let shared = 0;
  let agree = 0;
  while (i < aCtx.length && j < bCtx.length) {
    const x = aCtx[i]!;
    const y = bCtx[j]!;
    if (x > limit || y > limit) break;
    if (x < y) i++;
    else if (y < x) j++;
    else {
      shared++;
      if (aVal[i] === bVal[j]) agree++;
      i++;
      j++;
    }
  }
  return { shared, agree };
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
  const numberFacts = facts(tokens, TOKEN_NUMBER, sketchSize);
  const entityFacts = facts(tokens, TOKEN_ENTITY, sketchSize);
  return {
    numberContexts: numberFacts.contexts,
    numberValues: numberFacts.values,
    entityContexts: entityFacts.contexts,
    entityValues: entityFacts.values,
    numberCount: distinctCount(numArr),
    entities: bottomK(entArr, sketchSize),
    entityCount: entArr.length,
    topEntities: Uint32Array.from(top),
  };
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
