/**
 * Extraction at the fetch caps stays inside the fetch function's memory: every hostile page shape,
 * filled to the fetch byte cap, extracted in a fresh process under the V8 heap flags Lambda gives the
 * function's size, while the other hosts' pages of a batch are held, must finish, keep the article, and
 * peak below the size and within the headroom over the recorded peak the size was derived from
 * (infra/memory-sizing.ts).
 */
import { describe, expect, it } from "vitest";
import { measureAtCaps } from "../../bench/memory-at-caps";
import { withinRecordedPeak } from "../../infra/memory-sizing";
import { topology } from "../../infra/topology";

describe("memory at the caps", () => {
  it("extracts every hostile shape at the fetch byte cap within the fetch function's memory", async () => {
    const functionMb = topology.functions.fetch.memoryMb;
    const rows = await measureAtCaps();
    for (const r of rows) {
      expect(r.peakMb, `${r.shape}: peak ${r.peakMb.toFixed(0)} MB`).toBeLessThan(functionMb);
      // A change that raises the peak past the recorded one (which sized the function) fails here.
      expect(withinRecordedPeak("fetch", r.peakMb), `${r.shape}: peak ${r.peakMb.toFixed(0)} MB`).toBe(true);
      expect(r.words, `${r.shape}: the article before the hostile part`).toBeGreaterThanOrEqual(420);
    }
  });
});
