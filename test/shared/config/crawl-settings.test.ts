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
