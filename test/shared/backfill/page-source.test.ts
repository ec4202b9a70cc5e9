import { describe, expect, it } from "vitest";
import { SourceLookup } from "../../../shared/backfill/page-source";
import { parseSources } from "../../../shared/discover/sources";

describe("SourceLookup", () => {
  const sources = parseSources([
    {
      id: "wire-carrier",
      publication: "Wire Carrier",
      homepage: "https://www.carrier.example/",
      feeds: ["https://feeds.carrier.example/rss"],
      partners: ["wire.example"],
      min_delay_ms: 2000,
    },
  ]);

  it("names an archived page's source, with the settings fetch would apply to it", () => {
    expect(new SourceLookup(sources).sourceOf("https://carrier.example/a")).toEqual({
      source_id: "wire-carrier",
      publication: "Wire Carrier",
      language: null,
      settings: { partners: ["wire.example"], min_delay_ms: 2000 },
    });
    expect(new SourceLookup(sources).sourceOf("https://news.carrier.example/b").source_id).toBe(
      "wire-carrier",
    );
  });

  it("names a page of no configured source after its registrable domain, with no settings", () => {
    expect(new SourceLookup(sources).sourceOf("https://www.other.co.uk/x")).toEqual({
      source_id: "other.co.uk",
      publication: "other.co.uk",
      language: null,
      settings: {},
    });
  });
});
