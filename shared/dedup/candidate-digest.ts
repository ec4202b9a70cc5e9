/**
 * Candidate digest: the low byte of every MinHash slot (body signature, then lede signature),
 * stored with each LSH bucket entry. Two-row bands make an unrelated pair a candidate with
 * probability ≈ bands·J², so at millions of indexed articles a look-up returns dozens of strangers;
 * the digest turns each of them away from the bytes the look-up already read, instead of a read of
 * its fingerprint.
 *
 * A slot's byte is equal with probability J + (1 − J)/256. The thresholds sit far below any pair
 * confirmation can accept (J ≥ 0.5 is ~64 equal body bytes; containment pairs the bands find share
 * their lede: ≥ 9 equal of either, measured on every evaluation corpus) and far above strangers
 * (J ≈ 0.01: 1.8 body bytes expected, 0.1 lede bytes).
 */
import { type Fingerprint, type FingerprintView, viewFingerprint } from "./fingerprint";
import type { MatchParams } from "./params";

/** Digest of a fingerprint: sig.length + lede.length bytes. */
export function candidateDigest(fp: Fingerprint | FingerprintView): Uint8Array {
  const v = "paramsKey" in fp ? fp : viewFingerprint(fp);
  const out = new Uint8Array(v.sig.length + v.lede.length);
  for (let i = 0; i < v.sig.length; i++) out[i] = v.sig[i]! & 0xff;
  for (let i = 0; i < v.lede.length; i++) out[v.sig.length + i] = v.lede[i]! & 0xff;
  return out;
}

/**
 * Whether two articles can still be copies, judged from their digests alone. `bodySlots` is the
 * length of the body part (the rest is the lede). Digests of other lengths (other parameters) are
 * never comparable, so they are let through to the full comparison, which rejects them.
 */
export function digestsMayMatch(
  a: Uint8Array,
  b: Uint8Array,
  bodySlots: number,
  params: Pick<MatchParams, "digestBodyMatches" | "digestLedeMatches">,
): boolean {
  if (a.length !== b.length || bodySlots > a.length) return true;
  let body = 0;
  for (let i = 0; i < bodySlots; i++) if (a[i] === b[i]) body++;
  if (body >= params.digestBodyMatches) return true;
  let lede = 0;
  for (let i = bodySlots; i < a.length; i++) if (a[i] === b[i]) lede++;
  return lede >= params.digestLedeMatches;
}
