/**
 * The fingerprint of an article: everything dedup needs, computed once by the fetch Lambda and
 * carried on the dedup queue; dedup stores it in the Fingerprints table (the Articles item has none). JSON-serialisable and small (~1.5 KB):
 * typed arrays are stored as base64 of little-endian uint32 values.
 */
import * as z from "zod/mini";
import "../config/zod-messages";
import { extractFeatures } from "./features";
import { minhashPermutations, minhashSignature } from "./minhash";
import { normaliseText } from "./normalise-text";
import { FINGERPRINT_VERSION, fingerprintParams } from "./params";
import { Shingler } from "./shingles";

const base64 = z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/));

export const fingerprintSchema = z.object({
  /** Fingerprint format version. */
  v: z.literal(FINGERPRINT_VERSION),
  /** Parameters the arrays were computed with: only equal parameters are comparable. */
  params: z.object({
    shingle: z.int().check(z.positive()),
    perms: z.int().check(z.positive()),
    seed: z.int().check(z.nonnegative()),
    sketch: z.int().check(z.positive()),
    lede_tokens: z.int().check(z.positive()),
    lede_perms: z.int().check(z.positive()),
  }),
  /** MinHash signature over the body's distinct shingles (base64 uint32 LE). */
  sig: base64,
  /** MinHash of the shingles of the body's first tokens (the lede), for finding truncated copies. */
  lede: base64,
  /** Tokens in the body. */
  tokens: z.int().check(z.nonnegative()),
  /** Distinct shingles in the body (the set size used to estimate containment). */
  shingles: z.int().check(z.nonnegative()),
  /** Distinct number tokens. */
  num_count: z.int().check(z.nonnegative()),
  /** Bottom-k of distinct entity-token hashes and their total count. */
  ents: base64,
  ent_count: z.int().check(z.nonnegative()),
  /** Most frequent entity-token hashes, most frequent first. */
  top_ents: base64,
  /** Number facts: bottom-k context hashes and the number in each (aligned arrays). */
  num_ctx: base64,
  num_val: base64,
  /** Entity facts: bottom-k context hashes and the name in each (aligned arrays). */
  ent_ctx: base64,
  ent_val: base64,
});
export type Fingerprint = z.infer<typeof fingerprintSchema>;

/** Decoded fingerprint, as the matcher uses it. */
export interface FingerprintView {
  readonly paramsKey: string;
  readonly sig: Uint32Array;
  readonly lede: Uint32Array;
  readonly tokens: number;
  readonly shingles: number;
  readonly numberCount: number;
  readonly entities: Uint32Array;
  readonly entityCount: number;
  readonly topEntities: Uint32Array;
  readonly numberContexts: Uint32Array;
  readonly numberValues: Uint32Array;
  readonly entityContexts: Uint32Array;
  readonly entityValues: Uint32Array;
}

function encodeUint32(values: Uint32Array): string {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setUint32(i * 4, values[i]!, true);
  return Buffer.from(bytes).toString("base64");
}

function paramsKeyOf(p: Fingerprint["params"]): string {
  return `${p.shingle}:${p.perms}:${p.seed}:${p.sketch}:${p.lede_tokens}:${p.lede_perms}`;
}

// The permutations of the fixed parameters, derived once at load (frozen).
const BODY_PERMUTATIONS = minhashPermutations(fingerprintParams.numPerm, fingerprintParams.seed);
const LEDE_PERMUTATIONS = minhashPermutations(fingerprintParams.ledePerms, fingerprintParams.seed ^ 0x1ede);

/** `shingler` is the scanner's working state: a caller computing many fingerprints passes its own. */
export function computeFingerprint(
  text: string,
  title?: string | null,
  shingler: Shingler = new Shingler(),
): Fingerprint {
  // The title is not shingled: syndicated copies rewrite headlines freely. Kept in the signature
  // of bodies too short to shingle, so two empty bodies never look alike.
  const body = normaliseText(text);
  const tokens = shingler.scanTokens(body.trim().length > 0 ? body : normaliseText(title ?? ""));
  const p = fingerprintParams;
  const features = extractFeatures(tokens, p.sketchSize, p.topEntities);
  const tokenCount = tokens.count;
  const ledeCount = Math.min(tokens.count, p.ledeTokens);
  const ledeTokens = {
    hashes: tokens.hashes.subarray(0, ledeCount),
    flags: tokens.flags.subarray(0, ledeCount),
    count: ledeCount,
  };
  const lede = minhashSignature(shingler.shingleHashes(ledeTokens, p.shingleSize), LEDE_PERMUTATIONS);
  const shingles = shingler.shingleHashes(tokens, p.shingleSize);
  const sig = minhashSignature(shingles, BODY_PERMUTATIONS);
  return {
    v: FINGERPRINT_VERSION,
    params: {
      shingle: p.shingleSize,
      perms: p.numPerm,
      seed: p.seed,
      sketch: p.sketchSize,
      lede_tokens: p.ledeTokens,
      lede_perms: p.ledePerms,
    },
    sig: encodeUint32(sig),
    lede: encodeUint32(lede),
    tokens: tokenCount,
    shingles: shingles.length,
    num_count: features.numberCount,
    ents: encodeUint32(features.entities),
    ent_count: features.entityCount,
    top_ents: encodeUint32(features.topEntities),
    num_ctx: encodeUint32(features.numberContexts),
    num_val: encodeUint32(features.numberValues),
    ent_ctx: encodeUint32(features.entityContexts),
    ent_val: encodeUint32(features.entityValues),
  };
}

/**
 * Decodes a fingerprint. Not memoised: a caller that needs the view again keeps it (the clusterer
 * decodes an article once per addArticle, and each candidate once where it compares it).
 */
export function viewFingerprint(fp: Fingerprint): FingerprintView {
  // One backing buffer for all eight arrays: one allocation per decode.
  const parts = [fp.sig, fp.lede, fp.ents, fp.top_ents, fp.num_ctx, fp.num_val, fp.ent_ctx, fp.ent_val].map(
    (t) => Buffer.from(t, "base64"),
  );
  const all = new Uint32Array(parts.reduce((n, b) => n + (b.length >>> 2), 0));
  const views: Uint32Array[] = [];
  let at = 0;
  for (const b of parts) {
    const len = b.length >>> 2;
    for (let i = 0; i < len; i++) all[at + i] = b.readUInt32LE(i * 4);
    views.push(all.subarray(at, at + len));
    at += len;
  }
  const [sig, lede, entities, topEntities, numberContexts, numberValues, entityContexts, entityValues] =
    views as [
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
    ];
  return {
    paramsKey: paramsKeyOf(fp.params),
    sig,
    lede,
    tokens: fp.tokens,
    shingles: fp.shingles,
    numberCount: fp.num_count,
    entities,
    entityCount: fp.ent_count,
    topEntities,
    numberContexts,
    numberValues,
    entityContexts,
    entityValues,
  };
}
