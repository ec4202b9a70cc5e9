/**
 * Dedup parameters, chosen from measurements on the evaluation corpora (docs/dedup.md has the
 * figures and the S-curves). Fingerprint parameters are recorded in every fingerprint; changing
 * them makes old and new fingerprints incomparable (the clusterer then never merges them).
 */
export const FINGERPRINT_VERSION = 1;

export const fingerprintParams = {
  /** Tokens per shingle (words; characters for scripts written without spaces). */
  shingleSize: 5,
  /** MinHash permutations. */
  numPerm: 128,
  /** Seed of the permutation family. */
  seed: 0x53_54_52_4c,
  /** Tokens at the start of the body covered by the lede signature. */
  ledeTokens: 100,
  /** MinHash permutations of the lede signature. */
  ledePerms: 32,
  /** Bottom-k size of the number and entity sketches. */
  sketchSize: 32,
  /** Most frequent entity tokens kept. */
  topEntities: 6,
} as const;

export const matchParams = {
  /** LSH: bands × rows over the first bands*rows signature slots. Every band is one Buckets item
   * per article (a write unit, the largest line of the cost model). Rows of 2 reach mid-similarity
   * pairs with few bands; the strangers they also let in (≈ bands·J²) are turned away by the
   * candidate digest filed with each entry, not by reading their fingerprints. */
  bands: 6,
  rows: 2,
  /** LSH over the lede signature: finds truncated copies and copies with much added text, whose
   * whole-text Jaccard is too low for the main bands. Candidates only; confirmation uses the body. */
  ledeBands: 2,
  ledeRows: 2,
  /** Below this many shingles an article is never merged on similarity alone. */
  minShingles: 40,
  /** Estimated Jaccard at or above which two articles are copies (if their facts agree). */
  jaccard: 0.5,
  /** Estimated containment of the shorter in the longer at or above which they are copies. */
  containment: 0.8,
  /** Numbers in contexts both texts share: at least this many before the check applies… */
  minSharedNumbers: 1,
  /** …and at least this share of them must be equal (templated stories change every figure). */
  numberAgreement: 0.5,
  /** Entities in shared contexts: at least this many before the check applies… */
  minSharedEntities: 3,
  /** …and at least this share of them must be equal (same wording with other names). */
  entityFactAgreement: 0.8,
  /** …or this share, when the pair matched on containment alone. */
  containedEntityFactAgreement: 0.95,
  /** Minimum share of the shorter text's leading entities mentioned in the longer. */
  entityAgreement: 1,
  /** A bucket entry is read as a candidate only if its digest (candidate-digest.ts) has at least
   * this many body bytes equal to the article's… */
  digestBodyMatches: 6,
  /** …or this many lede bytes. */
  digestLedeMatches: 4,
  /** Cap on candidates read from one bucket (boilerplate-heavy buckets stay bounded). */
  maxBucketCandidates: 200,
} as const;

// Widened to number so that tests and experiments can pass other values.
export type MatchParams = { readonly [K in keyof typeof matchParams]: number };
