/**
 * w3lib's and normalize-url's canonicalisation cases (peer-cases.ts) against canonicalUrl: each agrees,
 * or differs for a stated reason. The tally is part of the test, so a change in agreement is a decision.
 */
import { describe, expect, it } from "vitest";
import { canonicalUrl, InvalidUrlError } from "../../../shared/url/canonical-url";
import { PEER_CASES, type PeerCase } from "./peer-cases";

function ours(c: PeerCase): string | null {
  return c.ours === undefined ? c.expected : c.ours;
}

describe("canonicalUrl against the peers' cases", () => {
  for (const c of PEER_CASES) {
    it(`${c.peer} › ${c.test}: ${c.input}`, () => {
      const want = ours(c);
      if (want === null) expect(() => canonicalUrl(c.input, c.base)).toThrow(InvalidUrlError);
      else expect(canonicalUrl(c.input, c.base)).toBe(want);
    });
  }

  it("every difference gives its reason, and the tally is what docs/reliability/url-http.md says", () => {
    const tally: Record<string, Record<string, number>> = {};
    for (const c of PEER_CASES) {
      const differsFromPeer = c.ours !== undefined && c.ours !== c.expected;
      // A difference has one reason; a policy note without one says how the input was adapted.
      if (differsFromPeer) expect(Boolean(c.policy) !== Boolean(c.differs), c.input).toBe(true);
      else expect(c.differs, c.input).toBeUndefined();
      const kind = !differsFromPeer ? "same" : c.policy ? "policy" : "differs";
      const row = tally[c.peer] ?? {};
      row[kind] = (row[kind] ?? 0) + 1;
      tally[c.peer] = row;
    }
    expect(tally).toEqual({
      w3lib: { same: 6, policy: 49, differs: 5 },
      "normalize-url": { same: 38, policy: 31, differs: 13 },
    });
  });
});
