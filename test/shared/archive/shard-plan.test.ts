/** Cutting a day into shards: contiguous `collected_at` ranges of at most the cap, open at both ends. */
import { describe, expect, it } from "vitest";
import { cutShards } from "../../../shared/archive/shard-plan";

const hour = (h: number) => `2026-12-02T${String(h).padStart(2, "0")}:00:00.000Z`;

describe("cutShards", () => {
  it("keeps a small day in one shard, open at both ends", () => {
    expect(cutShards([{ at: hour(3), count: 10 }], 100)).toEqual([{ n: 0, from: null, to: null }]);
    expect(cutShards([], 100)).toEqual([{ n: 0, from: null, to: null }]);
  });

  it("cuts before the unit that would pass the cap; each range's end is the next one's start", () => {
    const units = [40, 40, 40, 10, 90, 5].map((count, h) => ({ at: hour(h), count }));
    expect(cutShards(units, 100)).toEqual([
      { n: 0, from: null, to: hour(2) },
      { n: 1, from: hour(2), to: hour(4) },
      { n: 2, from: hour(4), to: null },
    ]);
  });

  it("leaves a unit over the cap whole (one collected_at value cannot be split by a range)", () => {
    const units = [
      { at: hour(1), count: 5 },
      { at: hour(2), count: 300 },
      { at: hour(3), count: 5 },
    ];
    expect(cutShards(units, 100).map((s) => [s.from, s.to])).toEqual([
      [null, hour(2)],
      [hour(2), hour(3)],
      [hour(3), null],
    ]);
  });
});
