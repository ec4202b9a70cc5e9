import { describe, expect, it } from "vitest";
import {
  newSummary,
  SPREAD_OUTLETS,
  tenthCarriedAt,
  withArticle,
  withCluster,
} from "../../../shared/dedup/cluster-summary";
import type { DedupArticle } from "../../../shared/dedup/dedup-store";
import { computeFingerprint } from "../../../shared/dedup/fingerprint";

const now = "2024-03-05T00:00:00.000Z";
const fingerprint = computeFingerprint("text");

function art(id: string, published_at: string | null): DedupArticle {
  return {
    article_id: id,
    url: `https://x.example/${id}`,
    publication: `pub-${id}`,
    source_id: `src-${id}`,
    headline: `headline ${id}`,
    published_at,
    collected_at: "2024-03-04T00:00:00.000Z",
    fingerprint,
  };
}

describe("cluster summary arithmetic", () => {
  it("takes the tenth-earliest carried_at, and none below ten outlets", () => {
    const at = (m: number) => new Date(Date.UTC(2024, 2, 1, 10, m)).toISOString();
    const times = Array.from({ length: SPREAD_OUTLETS + 2 }, (_, i) => at(20 - i));
    expect(tenthCarriedAt(times.slice(0, SPREAD_OUTLETS - 1))).toBeNull();
    expect(tenthCarriedAt(times)).toBe(at(18)); // of 9…20 minutes
  });

  it("grows by an article: counts, bounds and the earlier copy as canonical (unknown dates last)", () => {
    const s = newSummary("c-a", art("a", "2024-03-01T10:00:00.000Z"), now);
    const grown = withArticle(s, art("b", "2024-03-01T09:00:00.000Z"), { count: 2, tenthAt: null }, now);
    expect(grown).toMatchObject({
      canonical_article_id: "b",
      first_published_at: "2024-03-01T09:00:00.000Z",
      last_published_at: "2024-03-01T10:00:00.000Z",
      article_count: 2,
      outlet_count: 2,
      revision: 2,
    });
    const undated = withArticle(grown, art("0", null), { count: 3, tenthAt: null }, now);
    expect(undated.canonical_article_id).toBe("b");
  });

  it("folds a whole cluster in, keeping the winner's id and the earliest canonical", () => {
    const w = newSummary("c-a", art("a", "2024-03-01T10:00:00.000Z"), now);
    const l = { ...newSummary("c-z", art("z", "2024-03-01T08:00:00.000Z"), now), article_count: 3 };
    const merged = withCluster(w, l, { count: 4, tenthAt: null }, now);
    expect(merged).toMatchObject({
      cluster_id: "c-a",
      canonical_article_id: "z",
      article_count: 4,
      revision: 2,
    });
  });
});
