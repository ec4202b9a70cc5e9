/**
 * The report's most revised stories, from a dataset built out of table items (no browser: the page's
 * section is checked as the HTML it renders; test/cli/report.test.ts loads the whole page in Chromium).
 */
import { describe, expect, it } from "vitest";
import { buildDataset } from "../../../shared/export/dataset";
import { reportData } from "../../../shared/report/report-data";
import { renderReport } from "../../../shared/report/report-page";
import { mostRevisedStories } from "../../../shared/report/revised-stories";

const NOW = new Date("2026-12-03T00:00:00Z");

const revision = (number: number, headline: string, previous: string) => ({
  number,
  collected_at: `2026-12-0${Math.min(number, 9)}T10:00:00.000Z`,
  modified_at: null,
  headline,
  previous_headline: previous,
  headline_changed: headline !== previous,
  body_changed: true,
  body_hash: "0123456789abcdef0123456789abcdef",
  words_added: 4,
  words_removed: 1,
  added_sample: "more words",
  removed_sample: "a",
  notice: null,
  notice_text: null,
  previous_body_key: `revisions/x/${number}.txt.gz`,
});

const items = (xs: Record<string, unknown>[]) =>
  (async function* () {
    yield* xs;
  })();

const summary = (cluster_id: string, canonical: string, headline: string) => ({
  record_type: "summary",
  item: "summary",
  cluster_id,
  canonical_article_id: canonical,
  canonical_url: `https://news.test/${canonical}`,
  headline,
  updated_at: "2026-12-02T10:00:00Z",
});
const member = (cluster_id: string, article_id: string, publication: string) => ({
  record_type: "member",
  item: `member#${article_id}`,
  cluster_id,
  article_id,
  url: `https://news.test/${article_id}`,
  publication,
  published_at: "2026-12-01T08:00:00Z",
});
const article = (article_id: string, publication: string, revision_count: number, revisions: unknown[]) => ({
  article_id,
  source_id: publication.toLowerCase(),
  publication,
  url: `https://news.test/${article_id}`,
  headline: `headline of ${article_id}`,
  word_count: 300,
  revision_count,
  revisions,
});

const dataset = () =>
  buildDataset({
    clusterItems: () =>
      items([
        summary("c1", "a1", "Port strike ends"),
        member("c1", "a1", "Harbor Daily"),
        member("c1", "a2", "Coastal Times"),
        summary("c2", "b1", "Council passes budget"),
        member("c2", "b1", "Harbor Daily"),
        summary("c3", "d1", "Never revised"),
        member("c3", "d1", "Harbor Daily"),
      ]),
    articleItems: () =>
      items([
        // Two headline changes and a body-only revision.
        article("a1", "Harbor Daily", 3, [
          revision(1, "Port strike ends after deal", "Port strike ends"),
          revision(2, "Port strike ends after deal", "Port strike ends after deal"),
          revision(3, "Dock workers <end> strike & vote", "Port strike ends after deal"),
        ]),
        article("a2", "Coastal Times", 1, [revision(1, "Strike over", "Strike ends")]),
        // A page that flipped 25 times: 20 kept on the item, 25 counted.
        article(
          "b1",
          "Harbor Daily",
          25,
          Array.from({ length: 20 }, (_, i) =>
            i % 2
              ? revision(i + 6, "Budget passes", "Budget fails")
              : revision(i + 6, "Budget fails", "Budget passes"),
          ),
        ),
        // Revised but not yet in a story (dedup has not placed it).
        article("e1", "Coastal Times", 2, [
          revision(1, "Storm warning", "Storm watch"),
          revision(2, "Storm warning", "Storm warning"),
        ]),
        article("d1", "Harbor Daily", 0, []),
      ]),
    frontierItems: () => items([]),
  });

describe("the most revised stories", () => {
  it("orders stories by their articles' revisions, each article's headline changes old → new", async () => {
    const stories = mostRevisedStories(await dataset(), 15);
    expect(stories.map((s) => [s.story_id, s.headline, s.revisions])).toEqual([
      ["c2", "Council passes budget", 25],
      ["c1", "Port strike ends", 4],
      [null, "headline of e1", 2],
    ]);
    const strike = stories[1]!;
    expect(strike.articles.map((a) => [a.publication, a.revision_count])).toEqual([
      ["Harbor Daily", 3],
      ["Coastal Times", 1],
    ]);
    // The body-only revision (2) changed no headline.
    expect(strike.articles[0]!.headline_changes).toEqual([
      {
        number: 1,
        collected_at: "2026-12-01T10:00:00.000Z",
        from: "Port strike ends",
        to: "Port strike ends after deal",
      },
      {
        number: 3,
        collected_at: "2026-12-03T10:00:00.000Z",
        from: "Port strike ends after deal",
        to: "Dock workers <end> strike & vote",
      },
    ]);
    expect(stories[0]!.articles[0]!.headline_changes).toHaveLength(20);
    expect(mostRevisedStories(await dataset(), 1)).toHaveLength(1);
  });

  it("is a section of the report: the changes escaped, and a run without revisions says so", async () => {
    const d = await dataset();
    const html = renderReport(reportData(d, [], { now: NOW }));
    expect(html).toContain("<h2>Most revised stories</h2>");
    expect(html).toContain("Port strike ends after deal → <b>Dock workers &lt;end&gt; strike &amp; vote</b>");
    expect(html.indexOf("Council passes budget")).toBeLessThan(
      html.indexOf("Storm watch → <b>Storm warning</b>"),
    );
    const none = renderReport(reportData({ ...d, revisions: [] }, [], { now: NOW }));
    expect(none).toContain("No article has been revised at its URL yet.");
  });
});
