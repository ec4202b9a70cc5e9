/**
 * Discovery at its caps stays inside the discover function's memory: one source, and as many at once as
 * the function runs (SOURCE_CONCURRENCY), each reading a 49.5 MB sitemap of 1.1 M entries over loopback
 * in a fresh process, must keep the URL cap's worth of URLs and peak below the function's size and within
 * the headroom over the peak recorded on this Node.js (infra/memory-sizing.ts). The bench alone checked
 * this until 2026-12-06, and the peak had drifted from 445 to 516–543 MB unseen.
 */
import { describe, expect, it } from "vitest";
import { benchDiscoverMemory } from "../../bench/discover-memory";
import { withinRecordedPeak } from "../../infra/memory-sizing";
import { topology } from "../../infra/topology";
import { SOURCE_CONCURRENCY } from "../../shared/crawl/discover-run";
import { DEFAULT_DISCOVERY_LIMITS } from "../../shared/discover/discover-source";

describe("discovery memory at the caps", () => {
  it("reads the largest sitemaps, as many sources at once as the function runs, within its memory", async () => {
    const { rows } = await benchDiscoverMemory({ sizingOnly: true });
    expect(rows.map((r) => r.urls)).toEqual([
      DEFAULT_DISCOVERY_LIMITS.maxUrls,
      DEFAULT_DISCOVERY_LIMITS.maxUrls * SOURCE_CONCURRENCY,
    ]);
    for (const r of rows) {
      const peak = `${r.what}: peak ${r.maxRssMb.toFixed(0)} MB`;
      expect(r.maxRssMb, peak).toBeLessThan(topology.functions.discover.memoryMb);
      expect(withinRecordedPeak("discover", r.maxRssMb), peak).toBe(true);
    }
  });
});
