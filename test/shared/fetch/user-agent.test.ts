import { describe, expect, it } from "vitest";
import { buildUserAgent, DEFAULT_USER_AGENT, robotsToken } from "../../../shared/fetch/user-agent";

describe("user agent", () => {
  it("names the crawler, its version and a contact URL", () => {
    expect(buildUserAgent({ contactUrl: "https://news-lab.example.org/crawler" })).toBe(
      "storytrail/0.1 (+https://news-lab.example.org/crawler; news research crawler)",
    );
    expect(
      buildUserAgent({ contactUrl: "mailto:ops@example.org", comment: "ACME (ops)", version: "2.0" }),
    ).toBe("storytrail/2.0 (+mailto:ops@example.org; ACME ops)");
    expect(DEFAULT_USER_AGENT).toMatch(/^storytrail\/\S+ \(\+https:\/\//);
  });
  it("refuses a missing or non-URL contact", () => {
    expect(() => buildUserAgent({ contactUrl: "call me" })).toThrow();
    expect(() => buildUserAgent({ contactUrl: "ftp://x.org" })).toThrow();
  });
  it("robotsToken is the product token", () => {
    expect(robotsToken("storytrail/0.1 (+https://x)")).toBe("storytrail");
    expect(robotsToken("StoryTrail")).toBe("storytrail");
  });
});
