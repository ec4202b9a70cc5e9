/**
 * Dedup on the developer corpus, through the same path as `storytrail dedup`, scored with the
 * project's scorer. Floors sit just below the measured figures (scripts/eval-dedup.ts prints them).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runDedup } from "../../shared/dedup/dataset-dedup";

const evalRoot = path.resolve(import.meta.dirname, "../..", "../shared");
const corpus = path.join(evalRoot, "eval/dedup/corpus-dev.jsonl");
const scorer = path.join(evalRoot, "tools/dedup/score_clusters.mjs");
const present = existsSync(corpus) && existsSync(scorer);

interface ScoreModule {
  scoreClusters(
    truth: Map<string, string>,
    pred: Map<string, string>,
  ): {
    pairwise: { f1: number };
    bcubed: { f1: number };
  };
  diagnostics(
    docs: unknown[],
    pred: Map<string, string>,
  ): { false_merge_rate_by_negative_kind: Record<string, { rate: number; n: number }> };
}

describe.skipIf(!present)("dedup on the developer corpus", () => {
  it("meets the quality floors", async () => {
    const text = readFileSync(corpus, "utf8");
    async function* lines() {
      yield* text.split("\n");
    }
    const { assignments } = await runDedup(lines());
    const docs = text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; cluster: string });
    const truth = new Map(docs.map((d) => [d.id, d.cluster]));
    const pred = new Map(assignments.map((a) => [a.id, a.cluster_id]));
    const { scoreClusters, diagnostics } = (await import(scorer)) as ScoreModule;
    const s = scoreClusters(truth, pred);
    const neg = diagnostics(docs, pred).false_merge_rate_by_negative_kind;
    const merged = Object.values(neg).reduce((n, v) => n + v.rate * v.n, 0);
    const negatives = Object.values(neg).reduce((n, v) => n + v.n, 0);
    expect(s.pairwise.f1).toBeGreaterThanOrEqual(0.98);
    expect(s.bcubed.f1).toBeGreaterThanOrEqual(0.98);
    expect(merged / negatives).toBeLessThanOrEqual(0.01);
  });
});

if (!present) {
  describe("dedup on the developer corpus", () => {
    it.skip(`skipped: ${corpus} not found (../shared/eval must sit beside the repository)`, () => {});
  });
}
