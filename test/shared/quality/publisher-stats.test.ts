import { describe, expect, it } from "vitest";
import {
  appendHistory,
  type DailyQuality,
  detectDrops,
  HISTORY_DAYS,
  summarise,
} from "../../../shared/quality/publisher-stats";

const day = (d: string, articles: number, median_words: number, valid_date_share: number): DailyQuality => ({
  day: d,
  articles,
  median_words,
  valid_date_share,
});
const history = [
  day("2026-11-27", 40, 600, 0.95),
  day("2026-11-28", 38, 580, 0.97),
  day("2026-11-29", 42, 620, 0.96),
];

describe("publisher quality", () => {
  it("summarises a day per source: count, median words, share with a valid date", () => {
    const s = summarise(
      [
        { article_id: "1", source_id: "a", word_count: 100, published_at: "2026-11-30T10:00:00Z" },
        { article_id: "2", source_id: "a", word_count: 300, published_at: null },
        { article_id: "3", source_id: "a", word_count: 200, published_at: "2026-11-30T11:00:00Z" },
        { article_id: "4", source_id: "b", word_count: 50, published_at: null },
      ],
      "2026-11-30",
    );
    expect(s.get("a")).toEqual(day("2026-11-30", 3, 200, 2 / 3));
    expect(s.get("b")).toEqual(day("2026-11-30", 1, 50, 0));
  });

  it("flags a sudden fall in body length or dated share against the source's own history", () => {
    expect(detectDrops("a", day("2026-11-30", 40, 590, 0.94), history)).toEqual([]);
    const drops = detectDrops("a", day("2026-11-30", 40, 120, 0.2), history);
    expect(drops.map((d) => d.metric).sort()).toEqual(["median_words", "valid_date_share"]);
    expect(drops.find((d) => d.metric === "median_words")).toMatchObject({ today: 120, baseline: 600 });
  });

  it("flags a source that stopped yielding articles, and judges nothing on thin evidence", () => {
    expect(detectDrops("a", undefined, history)).toEqual([
      { source_id: "a", metric: "articles", today: 0, baseline: 40 },
    ]);
    expect(detectDrops("a", day("2026-11-30", 3, 10, 0), history)).toEqual([]); // too few articles today
    expect(detectDrops("a", day("2026-11-30", 40, 10, 0), history.slice(0, 2))).toEqual([]); // too little history
  });

  it("keeps a bounded history, replacing a re-run of the same day", () => {
    let h: DailyQuality[] = [];
    for (let i = 1; i <= 20; i++) h = appendHistory(h, day(`2026-11-${String(i).padStart(2, "0")}`, i, 1, 1));
    expect(h).toHaveLength(HISTORY_DAYS);
    expect(h.at(-1)?.day).toBe("2026-11-20");
    h = appendHistory(h, day("2026-11-20", 99, 1, 1));
    expect(h).toHaveLength(HISTORY_DAYS);
    expect(h.at(-1)?.articles).toBe(99);
  });
});
