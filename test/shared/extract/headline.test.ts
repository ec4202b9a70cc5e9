import { describe, expect, it } from "vitest";
import { chooseHeadline, stripSiteName } from "../../../shared/extract/headline";

const base = { jsonLd: null, og: null, twitter: null, h1: [], title: null, siteName: null };

describe("chooseHeadline", () => {
  it("takes the candidate the sources agree on", () => {
    expect(
      chooseHeadline({ ...base, jsonLd: "Bridge reopens", og: "Bridge reopens", h1: ["Bridge reopens"] }),
    ).toBe("Bridge reopens");
    expect(
      chooseHeadline({
        ...base,
        og: "SEO headline",
        h1: ["Visible headline"],
        title: "Visible headline | Site",
      }),
    ).toBe("SEO headline");
  });

  it("strips the site name from <title> and og:title", () => {
    expect(chooseHeadline({ ...base, title: "Bridge reopens | The Courier", siteName: "The Courier" })).toBe(
      "Bridge reopens",
    );
    expect(stripSiteName("The Courier - Bridge reopens", "The Courier", [])).toBe("Bridge reopens");
  });

  it("prefers the og:title that is the JSON-LD headline minus a kicker", () => {
    expect(
      chooseHeadline({ ...base, jsonLd: "Kicker: The real headline here", og: "The real headline here" }),
    ).toBe("The real headline here");
  });

  it("returns null when there is nothing", () => {
    expect(chooseHeadline(base)).toBeNull();
  });
});
