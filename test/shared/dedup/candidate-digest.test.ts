import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { candidateDigest, digestsMayMatch } from "../../../shared/dedup/candidate-digest";
import { compareFingerprints } from "../../../shared/dedup/confirm";
import { computeFingerprint, viewFingerprint } from "../../../shared/dedup/fingerprint";
import { bandKeys } from "../../../shared/dedup/lsh";
import { fingerprintParams, matchParams } from "../../../shared/dedup/params";
import { article } from "./texts";

const BODY = fingerprintParams.numPerm;

describe("candidateDigest", () => {
  it("keeps the low byte of every body slot, then every lede slot", () => {
    const fp = computeFingerprint(article(3));
    const v = viewFingerprint(fp);
    const d = candidateDigest(fp);
    expect(d.length).toBe(fingerprintParams.numPerm + fingerprintParams.ledePerms);
    expect(d[0]).toBe(v.sig[0]! & 0xff);
    expect(d[BODY - 1]).toBe(v.sig[BODY - 1]! & 0xff);
    expect(d[BODY]).toBe(v.lede[0]! & 0xff);
    expect(candidateDigest(v)).toEqual(d);
  });

  it("lets copies through and turns strangers away", () => {
    const a = candidateDigest(computeFingerprint(article(5)));
    const copy = candidateDigest(computeFingerprint(`By A. Writer\n\n${article(5)}`));
    const stranger = candidateDigest(computeFingerprint(article(6)));
    expect(digestsMayMatch(a, copy, BODY, matchParams)).toBe(true);
    expect(digestsMayMatch(a, stranger, BODY, matchParams)).toBe(false);
    // Digests of other parameters are not comparable here: the full comparison decides.
    expect(digestsMayMatch(a, stranger.subarray(0, 100), BODY, matchParams)).toBe(true);
  });

  it("passes a truncated copy on its lede alone", () => {
    const full = candidateDigest(computeFingerprint(article(8, 12)));
    const truncated = candidateDigest(computeFingerprint(article(8, 2)));
    const lede = { ...matchParams, digestBodyMatches: BODY + 1 };
    expect(digestsMayMatch(full, truncated, BODY, lede)).toBe(true);
  });
});

const evalRoot = path.resolve(import.meta.dirname, "../../..", "../shared/eval/dedup");
const present = existsSync(path.join(evalRoot, "corpus-dev.jsonl"));

describe.skipIf(!present)("candidate digests on the developer corpus", () => {
  it("never turns away a pair the full comparison confirms", () => {
    const docs = readFileSync(path.join(evalRoot, "corpus-dev.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { text: string; title: string });
    const views = docs.map((d) => viewFingerprint(computeFingerprint(d.text, d.title)));
    const digests = views.map((v) => candidateDigest(v));
    // Candidates of a layout far wider than the product's, so that weak pairs are tried too.
    const buckets = new Map<number, number[]>();
    let confirmed = 0;
    let turnedAway = 0;
    for (let i = 0; i < views.length; i++) {
      const v = views[i]!;
      const near = new Set<number>();
      for (const k of [...bandKeys(v.sig, 32, 2), ...bandKeys(v.lede, 16, 2, 1000)]) {
        for (const j of buckets.get(k) ?? []) near.add(j);
        buckets.set(k, [...(buckets.get(k) ?? []), i]);
      }
      for (const j of near) {
        const match = compareFingerprints(v, views[j]!, matchParams, fingerprintParams.sketchSize).match;
        const passes = digestsMayMatch(digests[i]!, digests[j]!, BODY, matchParams);
        if (match) confirmed++;
        if (match && !passes) turnedAway++;
      }
    }
    expect(confirmed).toBeGreaterThan(10_000);
    expect(turnedAway).toBe(0);
  });

  it("turns away almost every pair of unrelated articles", () => {
    const base = readFileSync(path.join(evalRoot, "base_articles-dev.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { title: string; paragraphs: string[] });
    const digests = base.map((b) => candidateDigest(computeFingerprint(b.paragraphs.join("\n\n"), b.title)));
    let pairs = 0;
    let passed = 0;
    for (let i = 0; i < digests.length; i++) {
      for (let j = i + 1; j < digests.length; j++) {
        pairs++;
        if (digestsMayMatch(digests[i]!, digests[j]!, BODY, matchParams)) passed++;
      }
    }
    expect(pairs).toBeGreaterThan(3000);
    expect(passed / pairs).toBeLessThan(0.01);
  });
});
