import { describe, expect, it } from "vitest";
import { costBreakdown, totalUsd } from "../../bench/cost-model";
import { PRICES } from "../../bench/prices";
import { recheckCostLines, recheckListings, recheckLooks, recheckUsd } from "../../bench/recheck-cost";
import { DEFAULT_RECHECK_HOURS } from "../../shared/config/crawl-settings";
import { costSettings, observation } from "../support/cost-fixtures";

const at = (discoveryIntervalHours: number, hours = DEFAULT_RECHECK_HOURS) =>
  recheckLooks({ hours, discoveryIntervalHours, fetchDelayHours: 0.25 });

describe("re-checks of articles without lastmod", () => {
  it("look once per discovery run a step falls due in, steps a late run passed skipped", () => {
    expect(at(0.25)).toBe(4);
    expect(at(1)).toBe(4);
    // Due at 1.25, 4.25, 12.25, 24.25 h: the runs at 6 (the first two), 18 and 30 h.
    expect(at(6)).toBe(3);
    // A source discovered daily: the run a day on is past every step but the last; then none is left.
    expect(at(24)).toBe(1);
    expect(at(1, [])).toBe(0);
  });

  it("each costs an article's pass without its storage and discovery, plus the claim's write and the article's read", () => {
    const obs = observation({
      functions: {
        fetch: { invocationsPerArticle: 0.1, cpuMs: 100, ioMs: 200, appLogBytes: 3000 },
        discover: { invocationsPerArticle: 0.01, cpuMs: 500, ioMs: 500, appLogBytes: 100 },
      },
      tables: { articles: { rru: 0, wru: 5, storedBytes: 5000 } },
    });
    const s = costSettings({ memoryMb: { fetch: 1769, discover: 512 } });
    const lines = costBreakdown(obs, s);
    const stored = lines.filter((l) => l.item.includes("storage") || l.item.startsWith("discover "));
    expect(stored.map((l) => l.service)).toEqual(["Lambda", "DynamoDB", "S3"]);
    const own = 2 * PRICES.dynamoPerRru + PRICES.dynamoPerWru; // 5,000 bytes: two 4 KB read units
    expect(recheckUsd(obs, s)).toBeCloseTo((totalUsd(lines) - totalUsd(stored)) / 1e6 + own, 12);
  });

  it("lists an article dated by its publication alone at the runs meeting a step's 3-hour window", () => {
    const listings = (discoveryIntervalHours: number, hours = DEFAULT_RECHECK_HOURS) =>
      recheckListings({ hours, discoveryIntervalHours });
    // Hourly: the runs at 1–8 h (steps 1 and 4), 12–16 h and 24–28 h.
    expect(listings(1)).toBe(18);
    // Daily: the run a day on (steps 1, 4, 12 and 24 in its day) and the next (24 h + 3 h past it).
    expect(listings(24)).toBe(2);
    expect(listings(1, [])).toBe(0);
  });

  it("is extra fetches × one re-check's dollars and the listings' refused claims, linear in the share without lastmod", () => {
    const obs = observation();
    const s = costSettings();
    const lines = (noLastmodShare: number, discoveryIntervalHours: number) =>
      recheckCostLines(obs, s, {
        hours: DEFAULT_RECHECK_HOURS,
        noLastmodShare,
        discoveryIntervalHours,
        fetchDelayHours: 0.25,
      });
    const [fetches, listings] = lines(0.5, 1);
    expect(fetches).toMatchObject({ quantity: 2e6, unit: "fetches" });
    expect(fetches!.usd).toBeCloseTo(2e6 * recheckUsd(obs, s), 9);
    expect(listings).toMatchObject({ quantity: 9e6, unit: "WRU", usd: 9e6 * PRICES.dynamoPerWru });
    expect(totalUsd(lines(1, 1))).toBeCloseTo(2 * totalUsd(lines(0.5, 1)), 9);
    expect(lines(0.5, 24)[0]!.usd).toBeCloseTo(fetches!.usd / 4, 9);
    expect(totalUsd(lines(0, 1))).toBe(0);
  });
});
