/**
 * Locality-sensitive hashing over MinHash signatures: the signature is cut into `bands` bands of
 * `rows` slots; two articles become candidates when any band is equal. With per-band match
 * probability J^rows, P(candidate) = 1 - (1 - J^rows)^bands (the S-curve in docs/dedup.md).
 *
 * A band key is a safe integer band * 2^32 + hash32(band slots): numeric for the in-memory index,
 * and bandKeyString() gives the string partition key a table adapter stores.
 */
import { fmix32, mixStep } from "./hash";

const TWO_32 = 0x1_0000_0000;

/** Band keys of one signature; `firstBand` numbers the bands (separate key spaces per signature). */
export function bandKeys(sig: Uint32Array, bands: number, rows: number, firstBand = 0): number[] {
  if (bands * rows > sig.length)
    throw new Error(`LSH ${bands}x${rows} needs ${bands * rows} slots, have ${sig.length}`);
  const keys: number[] = new Array(bands);
  for (let b = 0; b < bands; b++) {
    const band = firstBand + b;
    let h = 0x1b5a_94e3 ^ band;
    for (let r = 0; r < rows; r++) h = mixStep(h, sig[b * rows + r]!);
    keys[b] = band * TWO_32 + fmix32(h ^ rows);
  }
  return keys;
}

/** String form of a band key for a table partition key; carries the band layout and fingerprint parameters. */
export function bandKeyString(key: number, bands: number, rows: number, paramsKey: string): string {
  const band = Math.floor(key / TWO_32);
  const hash = key - band * TWO_32;
  return `lsh1|${paramsKey}|${bands}x${rows}|${band}|${hash.toString(16).padStart(8, "0")}`;
}
