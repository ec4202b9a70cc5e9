/**
 * Confirmation of an LSH candidate pair: a pure, symmetric function of the two fingerprints (so the
 * set of confirmed pairs, hence the clusters, does not depend on arrival order).
 *
 * Copies: estimated Jaccard ≥ matchParams.jaccard, or the shorter text estimated to be contained in
 * the longer (truncated copies, copies with paragraphs added). Not copies, whatever the wording:
 * texts too short to judge, and texts whose numbers or leading names disagree (templated stories,
 * same-topic rewrites).
 */

import { factAgreement, sketchHas } from "./features";
import type { FingerprintView } from "./fingerprint";
import { estimateContainment, estimateJaccard } from "./minhash";
import { fingerprintParams, type MatchParams, matchParams } from "./params";

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
  readonly entityAgreement: number | null;
  /** Numbers / entities in shared contexts, and how many agree. */
  readonly numberFacts: { shared: number; agree: number };
  readonly entityFacts: { shared: number; agree: number };
}

/** Share of x's leading entities that y mentions at all (null when unknown). */
function entitiesFound(x: FingerprintView, y: FingerprintView): number | null {
  if (x.topEntities.length === 0 || y.entityCount === 0) return null;
  // Beyond the last value of a full bottom-k sketch, absence is unknown: skip those.
  const limit = y.entityCount > y.entities.length ? y.entities[y.entities.length - 1]! : 0xffffffff;
  let seen = 0;
  let hit = 0;
  for (const e of x.topEntities) {
    if (e > limit) continue;
    seen++;
    if (sketchHas(y.entities, e)) hit++;
  }
  return seen === 0 ? null : hit / seen;
}

/**
 * Whether the leading entities (most frequent capitalised tokens) of one text all appear in the
 * other, in the better direction: a copy keeps its source's names (a truncated copy's names are all
 * in the full text; a copy with a byline added still has every name of its source), while a story
 * rewritten with other names fails both ways. null when there is nothing to compare.
 */
function entityAgreement(a: FingerprintView, b: FingerprintView): number | null {
  const ab = entitiesFound(a, b);
  const ba = entitiesFound(b, a);
  if (ab === null) return ba;
  if (ba === null) return ab;
  return Math.max(ab, ba);
}

export function compareFingerprints(
  a: FingerprintView,
  b: FingerprintView,
  params: MatchParams = matchParams,
  sketchSize: number = fingerprintParams.sketchSize,
): MatchResult {
  const none = { shared: 0, agree: 0 };
  const base = {
    jaccard: 0,
    containment: 0,
    entityAgreement: null,
    numberFacts: none,
    entityFacts: none,
  };
  if (a.paramsKey !== b.paramsKey) return { match: false, reason: "incomparable", ...base };
  if (Math.min(a.shingles, b.shingles) < params.minShingles)
    return { match: false, reason: "too_short", ...base };
  const jaccard = estimateJaccard(a.sig, b.sig);
  // Containment of the smaller text in the larger (truncated copies, copies with added paragraphs).
  const containment =
    a.shingles <= b.shingles
      ? estimateContainment(a.sig, b.sig, a.shingles, b.shingles)
      : estimateContainment(b.sig, a.sig, b.shingles, a.shingles);
  const ents = entityAgreement(a, b);
  const numberFacts = factAgreement(
    a.numberContexts,
    a.numberValues,
    b.numberContexts,
    b.numberValues,
    sketchSize,
  );
  const entityFacts = factAgreement(
    a.entityContexts,
    a.entityValues,
    b.entityContexts,
    b.entityValues,
    sketchSize,
  );
  const scores = { jaccard, containment, entityAgreement: ents, numberFacts, entityFacts };
  if (jaccard < params.jaccard && containment < params.containment) {
    return { match: false, reason: "dissimilar", ...scores };
  }
  const nf = numberFacts;
  if (nf.shared >= params.minSharedNumbers && nf.agree < params.numberAgreement * nf.shared) {
    return { match: false, reason: "numbers_differ", ...scores };
  }
  const ef = entityFacts;
  // Matched on containment alone (a part of one text inside the other): a swapped name is what tells a
  // templated story from a truncated copy, so names must agree more strictly than for whole copies.
  const nameShare =
    jaccard >= params.jaccard ? params.entityFactAgreement : params.containedEntityFactAgreement;
  if (ef.shared >= params.minSharedEntities && ef.agree < nameShare * ef.shared) {
    return { match: false, reason: "entities_differ", ...scores };
  }
  if (ents !== null && ents < params.entityAgreement) {
    return { match: false, reason: "entities_differ", ...scores };
  }
  return { match: true, reason: jaccard >= params.jaccard ? "jaccard" : "containment", ...scores };
}
