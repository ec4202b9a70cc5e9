import { describe, expect, it } from "vitest";
import { clusterRecordSchema, RECORD_VERSION } from "../../shared/records";

describe("cluster records", () => {
  it("rejects a member item without the member# prefix", () => {
    const r = clusterRecordSchema.safeParse({
      record_version: RECORD_VERSION,
      record_type: "member",
      cluster_id: "c1",
      item: "a1",
      article_id: "a1",
      url: "https://example.com/a",
      publication: "Example",
      published_at: null,
      similarity: 1,
    });
    expect(r.success).toBe(false);
  });
});
