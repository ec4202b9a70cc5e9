import { describe, expect, it } from "vitest";
import { buildDataset } from "../../../shared/export/dataset";
import { datasetTables } from "../../../shared/export/tables";
import { articleRevision } from "../../support/revision-fixtures";

const revision = (number: number, headline: string, previous: string) =>
  articleRevision({
    number,
    collected_at: `2026-12-01T0${number}:00:00.000Z`,
    headline,
    previous_headline: previous,
  });

describe("the revisions table", () => {
  it("has one row per revision an article keeps, with its story and count, and none for an older item", async () => {
    const iter = (xs: Record<string, unknown>[]) =>
      (async function* () {
        yield* xs;
      })();
    const d = await buildDataset({
      clusterItems: () =>
        iter([
          {
            record_type: "summary",
            item: "summary",
            cluster_id: "c1",
            canonical_article_id: "a1",
            updated_at: "2026-12-01T10:00:00Z",
          },
          {
            record_type: "member",
            item: "member#a1",
            cluster_id: "c1",
            article_id: "a1",
            url: "https://x/a1",
            publication: "P",
          },
        ]),
      articleItems: () =>
        iter([
          {
            article_id: "a1",
            source_id: "s",
            url: "https://x/a1",
            word_count: 300,
            revision_count: 3,
            revisions: [revision(2, "B", "A"), revision(3, "C", "B")],
          },
          { article_id: "a2", source_id: "s", url: "https://x/a2", word_count: 300 },
        ]),
      frontierItems: () => iter([]),
    });
    expect(
      d.revisions.map((r) => [r.article_id, r.story_id, r.number, r.revision_count, r.headline]),
    ).toEqual([
      ["a1", "c1", 2, 3, "B"],
      ["a1", "c1", 3, 3, "C"],
    ]);
    const table = datasetTables(d).find((t) => t.name === "revisions");
    expect(table?.columns.map((c) => c.name)).toContain("previous_headline");
    expect(table?.rows).toHaveLength(2);
  });
});
