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
