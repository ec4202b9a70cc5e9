/**
 * A datasketch-equivalent MinHash: each shingle hashed once (SHA-1, first 4 bytes little-endian, as
 * datasketch's sha1_hash32), then permutation i is (a_i·x + b_i) mod (2^61 − 1), truncated to 32
 * bits, as datasketch.MinHash.update does with numpy uint64. The product is computed exactly in
 * 16-bit limbs with doubles (no BigInt in the inner loop), the fair JS version of that arithmetic.
 */
import { createHash } from "node:crypto";
import { splitmix32 } from "../shared/dedup/hash";
import { seedShingles } from "./seed-minhash";

const P = 2 ** 61 - 1;
const L16 = 65536;

/**
 * (a·x + b) mod (2^61 − 1), low 32 bits, exactly: a and b < 2^61 given as 16-bit limbs, x < 2^32.
 * Limb products stay below 2^35, so every step is exact in doubles.
 */
function permute(a: Float64Array, b: Float64Array, o: number, x: number): number {
  const x0 = x % L16;
  const x1 = (x - x0) / L16;
  let c = a[o]! * x0 + b[o]!;
  const l0 = c % L16;
  c = (c - l0) / L16 + a[o + 1]! * x0 + a[o]! * x1 + b[o + 1]!;
  const l1 = c % L16;
  c = (c - l1) / L16 + a[o + 2]! * x0 + a[o + 1]! * x1 + b[o + 2]!;
  const l2 = c % L16;
  c = (c - l2) / L16 + a[o + 3]! * x0 + a[o + 2]! * x1 + b[o + 3]!;
  const l3 = c % L16;
  c = (c - l3) / L16 + a[o + 3]! * x1;
  // value = c·2^64 + l3·2^48 + l2·2^32 + l1·2^16 + l0; 2^61 ≡ 1 (mod P).
  const l3lo = l3 % 8192; // bits 48..60
  const high = (l3 - l3lo) / 8192 + c * 8; // bits 61 and up
  let vl = l0 + l1 * L16 + high; // < 2^34
  let vh = l2 + l3lo * L16; // < 2^29
  const carry = Math.floor(vl / 4294967296);
  vl -= carry * 4294967296;
  vh += carry;
  // Subtracting P = subtracting 2^61 and adding 1.
  if (vh > 536870911 || (vh === 536870911 && vl === 4294967295)) {
    vh -= 536870912;
    vl += 1;
    if (vl === 4294967296) vl = 0;
  }
  return vl;
}

function limbs(v: bigint): number[] {
  return [0, 1, 2, 3].map((i) => Number((v >> BigInt(16 * i)) & 0xffffn));
}

export interface DatasketchPerms {
  readonly numPerm: number;
  /** a_i and b_i as four 16-bit limbs each, permutation i at offset 4·i. */
  readonly a: Float64Array;
  readonly b: Float64Array;
}

export function datasketchPermutations(numPerm: number, seed = 1): DatasketchPerms {
  const next = splitmix32(seed);
  const r61 = () => ((BigInt(next() & 0x1fffffff) << 32n) | BigInt(next())) % BigInt(P);
  const a = new Float64Array(numPerm * 4);
  const b = new Float64Array(numPerm * 4);
  for (let i = 0; i < numPerm; i++) {
    const ai = r61();
    a.set(limbs(ai === 0n ? 1n : ai), 4 * i);
    b.set(limbs(r61()), 4 * i);
  }
  return { numPerm, a, b };
}

function sha1Hash32(s: string): number {
  return createHash("sha1").update(s).digest().readUInt32LE(0);
}

export function datasketchSignature(text: string, perms: DatasketchPerms): Uint32Array {
  const n = perms.numPerm;
  const sig = new Uint32Array(n).fill(0xffffffff);
  for (const s of seedShingles(text)) {
    const x = sha1Hash32(s);
    for (let i = 0; i < n; i++) {
      const h = permute(perms.a, perms.b, 4 * i, x);
      if (h < sig[i]!) sig[i] = h;
    }
  }
  return sig;
}
