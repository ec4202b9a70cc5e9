/**
 * The dataset's merge rules on hand-made table items: a retired story (merged_into, even through a
 * chain) is not counted, and its stale outlet items and counts are never read; outlets and counts
 * come from the member items filed under the live story.
 */
import { describe, expect, it } from "vitest";
import { articleItemFields } from "../../../shared/consumer/article-item";
import { buildDataset, type DatasetSource } from "../../../shared/export/dataset";

function source(clusters: Record<string, unknown>[], articles: Record<string, unknown>[]): DatasetSource {
  const iter = (xs: Record<string, unknown>[]) =>
    (async function* () {
      yield* xs;
    })();
  return {
    clusterItems: () => iter(clusters),
    articleItems: () => iter(articles),
    frontierItems: () => iter([]),
  };
}

const summary = (id: string, extra: Record<string, unknown> = {}) => ({
  record_type: "summary",
  item: "summary",
  cluster_id: id,
  canonical_article_id: `${id}-a`,
  canonical_url: `https://example.com/${id}`,
  headline: `Story ${id}`,
  publication: "Wire",
  updated_at: "2026-12-01T10:00:00Z",
  ...extra,
});
const member = (cluster: string, article: string, publication: string, published_at: string | null) => ({
  record_type: "member",
  item: `member#${article}`,
  cluster_id: cluster,
  article_id: article,
  url: `https://${publication.toLowerCase()}.example/${article}`,
  publication,
  published_at,
  collected_at: "2026-12-01T12:00:00.123Z",
  similarity: 0.9,
});
const outlet = (cluster: string, publication: string) => ({
  record_type: "outlet",
  item: `outlet#${publication}`,
  cluster_id: cluster,
  publication,
  carried_at: "2026-12-01T08:00:00Z",
});
const article = (id: string, source_id: string) => ({
  article_id: id,
  source_id,
  url: `https://x/${id}`,
  word_count: 300,
});

describe("buildDataset", () => {
  it("counts live stories only: retired ones (merged_into, chained A→B→C) and their stale outlet items are left out", async () => {
    const d = await buildDataset(
      source(
        [
          summary("c1"),
          member("c1", "a1", "Wire", "2026-12-01T09:00:00Z"),
          member("c1", "a2", "Herald", "2026-12-01T09:30:00+01:00"), // 08:30Z: carried before the wire
          member("c1", "a3", "Herald", "2026-12-01T11:00:00Z"),
          member("c1", "a4", "Post", null),
          outlet("c1", "Wire"),
          // Retired into c1; its summary still says 5 outlets and its outlet items were never removed.
          summary("c2", { merged_into: "c1", outlet_count: 5, article_count: 5 }),
          outlet("c2", "Gazette"),
          outlet("c2", "Ledger"),
          // Retired into c2, itself retired: a chain.
          summary("c3", { merged_into: "c2" }),
          summary("c4"),
          member("c4", "b1", "Ledger", "2026-12-01T07:00:00Z"),
        ],
        [
          article("a1", "wire"),
          article("a2", "herald"),
          { ...article("a3", "herald"), published_at: "2026-12-01T11:00:00Z" },
          article("a4", "post"),
          article("b1", "ledger"),
        ],
      ),
    );
    expect(d.stories.map((s) => s.story_id)).toEqual(["c1", "c4"]);
    const c1 = d.stories[0]!;
    expect(c1).toMatchObject({
      article_count: 4,
      outlet_count: 3,
      first_published_at: "2026-12-01T08:30:00.000Z",
      last_published_at: "2026-12-01T11:00:00.000Z",
      seconds_to_2_outlets: 1800,
      seconds_to_5_outlets: null,
      // The Post's copy has no date: it counts from when it was collected.
      spread_seconds: 12_600,
    });
    expect(c1.outlets.map((o) => [o.publication, o.source_id, o.delay_seconds])).toEqual([
      ["Herald", "herald", 0],
      ["Wire", "wire", 1800],
      ["Post", "post", 12_600],
    ]);
    expect(c1.outlets[0]!.copies.map((c) => c.article_id)).toEqual(["a2", "a3"]);
    const byId = new Map(d.articles.map((a) => [a.article_id, a]));
    expect(byId.get("a3")).toMatchObject({ story_id: "c1", delay_seconds: 9000 });
    expect(byId.get("b1")?.story_id).toBe("c4");
  });

  it("writes every timestamp as UTC with milliseconds, whatever precision or offset the item had", async () => {
    const d = await buildDataset(
      source(
        [summary("c1"), member("c1", "a1", "Wire", "2026-12-01T09:00:00+02:00")],
        [
          {
            ...article("a1", "wire"),
            published_at: "2026-12-01T09:00:00+02:00",
            collected_at: "2026-12-01T09:00:01Z",
          },
        ],
      ),
    );
    expect(d.stories[0]?.first_published_at).toBe("2026-12-01T07:00:00.000Z");
    expect(d.articles[0]).toMatchObject({
      published_at: "2026-12-01T07:00:00.000Z",
      collected_at: "2026-12-01T09:00:01.000Z",
    });
  });

  it("exports each article's body as text, from version 3 items (gzip bytes, or base64 from DynamoDB JSON) and version 2 items (a string)", async () => {
    const v3 = articleItemFields({ ...article("a1", "wire"), body: "Version three body." });
    const d = await buildDataset(
      source(
        [],
        [
          v3,
          { ...v3, article_id: "a2", url: "https://x/a2", body: Buffer.from(v3.body).toString("base64") },
          { ...article("a3", "wire"), record_version: 2, body: "Version two body." },
          article("a4", "wire"),
        ],
      ),
    );
    expect(d.articles.map((a) => [a.article_id, a.body])).toEqual([
      ["a1", "Version three body."],
      ["a2", "Version three body."],
      ["a3", "Version two body."],
      ["a4", ""],
    ]);
  });

  it("exports the structured date the byline overrode from version 4 items, and null from older ones", async () => {
    const v4 = articleItemFields({
      ...article("a1", "wire"),
      body: "",
      published_at_structured: "2026-12-03T09:00:00.000Z",
    });
    const d = await buildDataset(
      source(
        [],
        [
          v4,
          { ...v4, article_id: "a2", url: "https://x/a2", published_at_structured: "2026-12-03" },
          { ...article("a3", "wire"), record_version: 3 },
        ],
      ),
    );
    expect(d.articles.map((a) => [a.article_id, a.published_at_structured])).toEqual([
      ["a1", "2026-12-03T09:00:00.000Z"],
      ["a2", "2026-12-03"],
      ["a3", null],
    ]);
  });

  it("exports the declared headline, the kicker and the credit from version 5 items, null and empty from older ones", async () => {
    const v5 = articleItemFields({
      ...article("a1", "wire"),
      body: "",
      headline_declared: "Port strike: workers end walkout",
      kicker: "Port strike",
      credit: ["Reuters"],
    });
    const {
      headline_declared: _h,
      kicker: _k,
      credit: _c,
      ...v4
    } = { ...v5, article_id: "a2", url: "https://x/a2" };
    const d = await buildDataset(source([], [v5, { ...v4, record_version: 4 }]));
    expect(d.articles.map((a) => [a.article_id, a.headline_declared, a.kicker, a.credit])).toEqual([
      ["a1", "Port strike: workers end walkout", "Port strike", ["Reuters"]],
      ["a2", null, null, []],
    ]);
  });

  it("exports the date order flag from version 6 items, null from older ones", async () => {
    const v6 = articleItemFields({ ...article("a1", "wire"), body: "", date_order_flag: "swapped" as const });
    const { date_order_flag: _o, ...v5 } = { ...v6, article_id: "a2", url: "https://x/a2" };
    const d = await buildDataset(source([], [v6, { ...v5, record_version: 5 }]));
    expect(d.articles.map((a) => [a.article_id, a.date_order_flag])).toEqual([
      ["a1", "swapped"],
      ["a2", null],
    ]);
  });
});
