/**
 * Confirmation of an LSH candidate pair: a pure, symmetric function of the two fingerprints (so the
 * set of confirmed pairs, hence the clusters, does not depend on arrival order).
 *
 * Copies: estimated Jaccard ≥ matchParams.jaccard, or the shorter text estimated to be contained in
 * the longer (truncated copies, copies with paragraphs added). Not copies, whatever the wording:
 * texts too short to judge, and texts whose numbers or leading names disagree (templated stories,
 * same-topic rewrites).
 */

import { sketchContainment, sketchHas } from "./features";
import type { FingerprintView } from "./fingerprint";
import { estimateContainment, estimateJaccard } from "./minhash";
import { type MatchParams, matchParams } from "./params";

export type MatchReason =
  | "jaccard"
  | "containment"
  | "incomparable"
  | "too_short"
  | "dissimilar"
  | "numbers_differ"
  | "entities_differ";

export interface MatchResult {
  readonly match: boolean;
  readonly reason: MatchReason;
  readonly jaccard: number;
  readonly containment: number;
  readonly numberAgreement: number | null;
  readonly entityAgreement: number | null;
}

/** Share of one side's leading entities that the other text mentions at all (min over both directions). */
export function entityAgreement(a: FingerprintView, b: FingerprintView, sketchSize: number): number | null {
  const dir = (x: FingerprintView, y: FingerprintView): number | null => {
    if (x.topEntities.length === 0 || y.entityCount === 0) return null;
    const limit = y.entityCount > sketchSize ? y.entities[y.entities.length - 1]! : 0xffffffff;
    let seen = 0;
    let hit = 0;
    for (const e of x.topEntities) {
      if (e > limit) continue; // beyond the other sketch: unknown
      seen++;
      if (sketchHas(y.entities, e)) hit++;
    }
    return seen === 0 ? null : hit / seen;
  };
  const ab = dir(a, b);
  const ba = dir(b, a);
  if (ab === null) return ba;
  if (ba === null) return ab;
  return Math.min(ab, ba);
}

export function compareFingerprints(
  a: FingerprintView,
  b: FingerprintView,
  params: MatchParams = matchParams,
  sketchSize = 64,
): MatchResult {
  const base = { jaccard: 0, containment: 0, numberAgreement: null, entityAgreement: null };
  if (a.paramsKey !== b.paramsKey) return { match: false, reason: "incomparable", ...base };
  if (Math.min(a.shingles, b.shingles) < params.minShingles)
    return { match: false, reason: "too_short", ...base };
  const jaccard = estimateJaccard(a.sig, b.sig);
  const containment = estimateContainment(jaccard, a.shingles, b.shingles);
  const numberAgreement = sketchContainment(a.numbers, a.numberCount, b.numbers, b.numberCount, sketchSize);
  const ents = entityAgreement(a, b, sketchSize);
  const scores = { jaccard, containment, numberAgreement, entityAgreement: ents };
  if (jaccard < params.jaccard && containment < params.containment) {
    return { match: false, reason: "dissimilar", ...scores };
  }
  if (
    numberAgreement !== null &&
    Math.min(a.numberCount, b.numberCount) >= params.minNumbers &&
    numberAgreement < params.numberAgreement
  ) {
    return { match: false, reason: "numbers_differ", ...scores };
  }
  return { match: true, reason: jaccard >= params.jaccard ? "jaccard" : "containment", ...scores };
}
