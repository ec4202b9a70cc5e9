/** A backfill's cost lines: an imported article's costs after its GET, without the crawl's fetch queue. */
import { expect, it } from "vitest";
import { backfillCostLines, CC_NEWS_ASSUMED } from "../../bench/backfill-cost";
import { costSettings, observation } from "../support/cost-fixtures";

it("prices no fetch queue, put-back or early delivery: a backfill reads WARC files, not the fetch queue", () => {
  const obs = observation({
    functions: {
      fetch: { invocationsPerArticle: 0.1, cpuMs: 100, ioMs: 200, appLogBytes: 3000 },
      dedup: { invocationsPerArticle: 0.1, cpuMs: 50, ioMs: 50, appLogBytes: 300 },
    },
  });
  const settings = costSettings({
    fetchBatch: { pagesPerHost: 1, putBacksPerPage: 0.3, earlyPerPage: 7, concurrentHosts: 3 },
  });
  const lines = backfillCostLines(obs, settings, { ...CC_NEWS_ASSUMED, readMsPerRecord: 0.2 });
  expect(lines.filter((l) => /fetch queue|put-back|early/.test(l.item))).toEqual([]);
  expect(lines.find((l) => l.item.startsWith("backfill compute"))?.usd).toBeGreaterThan(0);
  expect(lines.some((l) => l.service === "Step Functions")).toBe(true);
});
