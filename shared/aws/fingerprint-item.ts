/** The Fingerprints table's form of a MinHash fingerprint (dedup-tables.ts stores it). */
import type { Fingerprint } from "../dedup/fingerprint";

/** Fingerprint arrays (base64 in the JSON form) are stored as binary: a quarter fewer bytes, and the
 * item stays under 2 KB, i.e. 2 write units per write instead of 3. */
const BINARY_FIELDS = [
  "sig",
  "lede",
  "ents",
  "top_ents",
  "num_ctx",
  "num_val",
  "ent_ctx",
  "ent_val",
] as const;

export function fingerprintToItem(fp: Fingerprint): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fp };
  for (const f of BINARY_FIELDS) out[f] = Buffer.from(fp[f], "base64");
  return out;
}

export function fingerprintFromItem(item: Record<string, unknown>): Fingerprint {
  const out: Record<string, unknown> = { ...item };
  for (const f of BINARY_FIELDS) {
    const v = item[f];
    if (v instanceof Uint8Array)
      out[f] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
  }
  return out as Fingerprint;
}
