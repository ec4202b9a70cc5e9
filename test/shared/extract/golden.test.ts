import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { expectedPath, goldenCases, runGoldenCase } from "../../../scripts/regenerate-golden";
import { extractionSchema } from "../../../shared/records";

// Per-publisher pages (synthetic, written for these tests) → expected records.
// After an intended change: `npx tsx scripts/regenerate-golden.ts`, review the diff, bump EXTRACTOR_VERSION.
describe("golden extraction fixtures", () => {
  for (const c of goldenCases()) {
    it(`${c.name} matches its expected record`, () => {
      const got = runGoldenCase(c);
      expect(extractionSchema.parse(got)).toEqual(got);
      const expected = JSON.parse(readFileSync(expectedPath(c), "utf8"));
      expect(got).toEqual(expected);
    });
  }
});
