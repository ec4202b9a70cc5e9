import { describe, expect, it } from "vitest";
import { PART } from "../../../shared/extract/heading-candidates";
import { kickerOf } from "../../../shared/extract/kicker";

const base = { jsonLd: null, og: null, twitter: null, h1: [], title: null, siteName: null };
const HEADLINE = "Dock workers end nine-day walkout";

describe("kickerOf", () => {
  it("reads the kicker markup of the <h1> that shows the headline", () => {
    expect(
      kickerOf(
        HEADLINE,
        { ...base, h1: ["Other teaser headline", HEADLINE], h1Kicker: ["Sport", "Ports"] },
        null,
      ),
    ).toBe("Ports");
  });

  it("reads a label the <h1> or the declared headline sets before the headline with punctuation or its own element", () => {
    expect(kickerOf(HEADLINE, { ...base, h1: [`Port strike: ${HEADLINE}`] }, null)).toBe("Port strike");
    expect(
      kickerOf(HEADLINE, { ...base, h1: [`${PART}Exclusive${PART} ${PART}${HEADLINE}${PART}`] }, null),
    ).toBe("Exclusive");
    expect(kickerOf(HEADLINE, { ...base, h1: [HEADLINE] }, `Ports / ${HEADLINE}`)).toBe("Ports");
  });

  it("finds none where nothing sets a label apart, or where the 'label' is a sentence or the headline's own words", () => {
    expect(kickerOf(HEADLINE, { ...base, h1: [HEADLINE] }, HEADLINE)).toBeNull();
    expect(kickerOf(HEADLINE, { ...base, h1: [`The ${HEADLINE}`] }, null)).toBeNull();
    const long = "After a long night of talks between unions and the port authority nobody expected this";
    expect(kickerOf(HEADLINE, { ...base, h1: [`${long}: ${HEADLINE}`] }, null)).toBeNull();
    expect(kickerOf(null, { ...base, h1: [`Port strike: ${HEADLINE}`] }, null)).toBeNull();
    expect(
      kickerOf(HEADLINE, { ...base, h1: [HEADLINE], h1Kicker: ["Ports Sept. 2, 2016"] }, null),
    ).toBeNull();
  });
});
