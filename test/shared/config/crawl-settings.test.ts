import { describe, expect, it } from "vitest";
import { crawlSettings } from "../../../shared/config/crawl-settings";
import { DEFAULT_USER_AGENT } from "../../../shared/fetch/user-agent";

describe("crawl settings: the User-Agent", () => {
  it("defaults to the one built by user-agent.ts, unchanged from the literal it replaced", () => {
    expect(crawlSettings({}).STORYTRAIL_USER_AGENT).toBe(DEFAULT_USER_AGENT);
    expect(DEFAULT_USER_AGENT).toBe(
      "storytrail/0.1 (+https://github.com/storytrail/storytrail; news research crawler)",
    );
  });
  it("takes the deployment's own", () => {
    expect(
      crawlSettings({ STORYTRAIL_USER_AGENT: "mybot/1 (+https://ops.example)" }).STORYTRAIL_USER_AGENT,
    ).toBe("mybot/1 (+https://ops.example)");
  });
});

describe("crawl settings: the minimum host delay", () => {
  it("defaults to 1 s and takes a deployment's own up to the 30 s Crawl-delay cap", () => {
    expect(crawlSettings({}).STORYTRAIL_MIN_HOST_DELAY_MS).toBe(1000);
    expect(crawlSettings({ STORYTRAIL_MIN_HOST_DELAY_MS: "30000" }).STORYTRAIL_MIN_HOST_DELAY_MS).toBe(
      30_000,
    );
  });
  it("refuses more than the cap, which would time out every page of every host, naming the setting", () => {
    expect(() => crawlSettings({ STORYTRAIL_MIN_HOST_DELAY_MS: "30001" })).toThrow(
      /STORYTRAIL_MIN_HOST_DELAY_MS/,
    );
  });
});

describe("crawl settings: the re-check schedule", () => {
  it("defaults to 1, 4, 12 and 24 h, takes a deployment's own, and an empty one never looks again", () => {
    expect(crawlSettings({}).STORYTRAIL_RECHECK_HOURS).toEqual([1, 4, 12, 24]);
    expect(crawlSettings({ STORYTRAIL_RECHECK_HOURS: "2, 6.5" }).STORYTRAIL_RECHECK_HOURS).toEqual([2, 6.5]);
    expect(crawlSettings({ STORYTRAIL_RECHECK_HOURS: "" }).STORYTRAIL_RECHECK_HOURS).toEqual([]);
  });
  it("refuses hours out of order, not numbers, or past the article's first two days, naming the setting", () => {
    expect(() => crawlSettings({ STORYTRAIL_RECHECK_HOURS: "4,1" })).toThrow(
      /STORYTRAIL_RECHECK_HOURS.*ascending/s,
    );
    expect(() => crawlSettings({ STORYTRAIL_RECHECK_HOURS: "1,x" })).toThrow(/STORYTRAIL_RECHECK_HOURS/);
    expect(() => crawlSettings({ STORYTRAIL_RECHECK_HOURS: "1,72" })).toThrow(/STORYTRAIL_RECHECK_HOURS/);
    expect(() => crawlSettings({ STORYTRAIL_RECHECK_HOURS: "0" })).toThrow(/STORYTRAIL_RECHECK_HOURS/);
  });
});
