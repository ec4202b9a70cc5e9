import { describe, expect, it } from "vitest";
import { changedFields, diffSources } from "../../../shared/discover/source-catalog";
import type { Source } from "../../../shared/discover/sources";

const source = (id: string, extra: Partial<Source> = {}): Source => ({
  id,
  publication: `Publication ${id}`,
  homepage: `https://${id}.example/`,
  feeds: [],
  sitemaps: [`https://${id}.example/sitemap.xml`],
  ...extra,
});

describe("diffSources", () => {
  it("tells added, changed, removed and unchanged sources apart, whatever the key order", () => {
    const reordered = JSON.parse(
      JSON.stringify(source("b"), ["sitemaps", "feeds", "homepage", "publication", "id"]),
    );
    const diff = diffSources(
      [source("a"), source("b"), source("c")],
      [source("d"), source("a", { schedule: "rate(1 hour)" }), reordered],
    );
    expect(diff.added.map((s) => s.id)).toEqual(["d"]);
    expect(diff.changed.map((c) => c.after.id)).toEqual(["a"]);
    expect(diff.removed.map((s) => s.id)).toEqual(["c"]);
    expect(diff.unchanged).toBe(1);
  });

  it("names the fields a change touches", () => {
    expect(
      changedFields(source("a"), source("a", { feeds: ["https://a.example/rss"], language: "en" })),
    ).toEqual(["feeds", "language"]);
  });
});
