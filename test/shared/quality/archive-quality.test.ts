import { describe, expect, it } from "vitest";
import { archiveQuality } from "../../../shared/quality/archive-quality";

/** Articles items as the store keeps them (the fields quality reads). */
function items(day: string, source: string, n: number, words: number, from = 0) {
  return Array.from({ length: n }, (_, i) => ({
    article_id: `${source}-${day}-${from + i}`,
    source_id: source,
    url: `https://${source}/${day}/${from + i}`,
    word_count: words + i,
    published_at: `${day}T06:00:00Z`,
    collected_at: `${day}T${String(i % 24).padStart(2, "0")}:00:00.000Z`,
    raw_key: i === 0 ? `raw/${source}-${day}.html.gz` : null,
  }));
}

async function* each<T>(xs: readonly T[]): AsyncGenerator<T> {
  yield* xs;
}

describe("archiveQuality", () => {
  it("judges each day the pages were collected against the days before it, with evidence", async () => {
    const days = ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"];
    const all = [
      ...days.flatMap((d) => items(d, "a.example", 12, 400)),
      // The fifth day: a template change halves a.example's bodies.
      ...items("2026-03-05", "a.example", 12, 100),
      ...items("2026-03-05", "b.example", 3, 300),
      // On a day's last millisecond: still that day.
      { ...items("2026-03-05", "b.example", 1, 300, 9)[0], collected_at: "2026-03-05T23:59:59.999Z" },
      { article_id: "undated", source_id: "b.example", word_count: 5 },
    ];
    const sources = await archiveQuality(each(all));
    expect(sources.map((s) => s.source_id)).toEqual(["a.example", "b.example"]);
    const [a, b] = sources;
    expect(a?.history.map((h) => h.day)).toEqual([...days, "2026-03-05"]);
    expect(a?.history.map((h) => h.articles)).toEqual([12, 12, 12, 12, 12]);
    expect(b?.history).toEqual([
      { day: "2026-03-05", articles: 4, median_words: 300.5, valid_date_share: 1 },
    ]);
    expect(a?.findings).toHaveLength(1);
    expect(a?.findings[0]).toMatchObject({
      metric: "median_words",
      day: "2026-03-05",
      today: 105.5,
      baseline: 405.5,
      raw_keys: ["raw/a.example-2026-03-05.html.gz"],
    });
    expect(a?.findings[0]?.sample_urls).toHaveLength(5);
    expect(a?.findings[0]?.sample_urls[0]).toBe("https://a.example/2026-03-05/0");
  });

  it("gives nothing for a store without articles", async () => {
    expect(await archiveQuality(each([]))).toEqual([]);
  });
});
