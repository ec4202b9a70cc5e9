import { describe, expect, it } from "vitest";
import { computeFingerprint } from "../../../shared/dedup/fingerprint";
import { normaliseText } from "../../../shared/dedup/normalise-text";
import { Shingler } from "../../../shared/dedup/shingles";
import { article } from "./texts";

const TEXTS = [
  article(4, 30), // long: grows the buffers
  "Москва — СТОЛИЦА России. Straße, ΣΊΣΥΦΟΣ, İstanbul",
  "東京都の人口 ภาษาไทย 𐐀𐐁𐐂 Deseret",
  "",
  "short",
  article(5, 2),
];

const scan = (s: Shingler, text: string) => {
  const t = s.scanTokens(normaliseText(text));
  return { hashes: [...t.hashes], flags: [...t.flags], shingles: [...s.shingleHashes(t, 5)] };
};

describe("Shingler", () => {
  it("gives every text the same tokens and shingles, fresh or after other texts", () => {
    const kept = new Shingler();
    const warm = TEXTS.map((t) => scan(kept, t));
    const again = [...TEXTS]
      .reverse()
      .map((t) => scan(kept, t))
      .reverse();
    const fresh = TEXTS.map((t) => scan(new Shingler(), t));
    expect(warm).toEqual(fresh);
    expect(again).toEqual(fresh);
  });

  it("gives computeFingerprint the same result as its default", () => {
    const kept = new Shingler();
    for (const t of TEXTS)
      expect(computeFingerprint(t, "Title", kept)).toEqual(computeFingerprint(t, "Title"));
  });
});
