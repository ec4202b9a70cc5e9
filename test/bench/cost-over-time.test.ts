import { describe, expect, it } from "vitest";
import {
  type BillLine,
  DAYS_PER_MONTH,
  heldArticleDays,
  monthlyBill,
  summarize,
} from "../../bench/cost-over-time";
import { DEFAULT_PITR, lifecycleDesign, todaysDesign } from "../../bench/lifecycle-designs";
import { GB, PRICES, TB } from "../../bench/prices";
import { costSettings } from "../support/cost-fixtures";
import { lifecycleInputs, lifecycleObservation } from "../support/lifecycle-fixtures";

const observed = lifecycleObservation();
const settings = costSettings();
const PER_DAY = 5_000_000;
const lifecycle = lifecycleDesign(observed, lifecycleInputs());
const today = todaysDesign(observed, 90);
const bill = (d: typeof today, month: number) => monthlyBill(observed, settings, d, month, PER_DAY);
const sum = (lines: readonly BillLine[], f: (l: BillLine) => boolean) =>
  lines.filter(f).reduce((s, l) => s + l.usd, 0);
const hotStorage = (lines: readonly BillLine[]) =>
  sum(lines, (l) => l.category === "storage" && l.service === "DynamoDB" && !l.item.includes("summary"));

describe("what a table holds over the months", () => {
  it("grows by a month's articles a month when kept forever, from half a month in month 1", () => {
    const forever = { kind: "forever" } as const;
    expect(heldArticleDays(forever, 1)).toBeCloseTo(DAYS_PER_MONTH / 2);
    expect(heldArticleDays(forever, 12)).toBeCloseTo(11.5 * DAYS_PER_MONTH);
  });

  it("holds its window once the window has filled, and less while it fills", () => {
    const window = { kind: "window", days: 31 } as const;
    expect(heldArticleDays(window, 1)).toBeCloseTo(DAYS_PER_MONTH / 2);
    expect(heldArticleDays(window, 2)).toBeLessThan(31);
    expect(heldArticleDays(window, 3)).toBeCloseTo(31);
    expect(heldArticleDays(window, 12)).toBeCloseTo(31);
    expect(heldArticleDays({ kind: "fixed" }, 7)).toBe(DAYS_PER_MONTH);
  });
});

describe("the monthly bill", () => {
  it("grows every month in today's design: its tables keep everything and back it all up", () => {
    const first = summarize(bill(today, 1));
    const last = summarize(bill(today, 12));
    expect(last.total).toBeGreaterThan(first.total);
    expect(last.byCategory.storage).toBeGreaterThan(first.byCategory.storage);
    expect(last.byCategory.backups).toBeGreaterThan(first.byCategory.backups);
    expect(last.byCategory.processing).toBeCloseTo(first.byCategory.processing);
    // Articles kept forever: 11.5 months of articles on average in month 12.
    const articles = bill(today, 12).find((l) => l.item.startsWith("articles ("))!;
    expect(articles.quantity).toBeCloseTo((2300 * PER_DAY * 11.5 * DAYS_PER_MONTH) / GB);
  });

  it("keeps the lifecycle's hot tables flat once their longest window (90 days) has filled", () => {
    const months = [4, 5, 8, 12].map((m) => hotStorage(bill(lifecycle, m)));
    for (const m of months) expect(m).toBeCloseTo(months[0]!, 6);
    expect(hotStorage(bill(lifecycle, 1))).toBeLessThan(months[0]!);
    // The archive in S3 and the story summaries are what still grow.
    const archiveGb = (m: number) =>
      bill(lifecycle, m).find((l) => l.item.startsWith("archive: Parquet"))!.quantity;
    expect(archiveGb(12)).toBeGreaterThan(archiveGb(4));
  });

  it("prices PITR at its price times the table's size, on every table today and on the topology's in the lifecycle", () => {
    for (const month of [1, 12]) {
      const lines = bill(today, month);
      for (const t of Object.keys(observed.tables)) {
        const pitr = lines.find((l) => l.item === `${t} PITR (the table's size)`)!;
        const size = lines
          .filter((l) => l.category === "storage" && l.unit === "GB-month" && l.item.startsWith(`${t} (`))
          .reduce((s, l) => s + l.quantity, 0);
        expect(pitr.quantity).toBeCloseTo(size);
        expect(pitr.usd).toBeCloseTo(size * PRICES.dynamoPitrPerGbMonth);
      }
    }
    const backups = bill(lifecycle, 12).filter((l) => l.category === "backups");
    // infra/topology-tables.ts: on where nothing rebuilds the table, off for Hosts and Buckets.
    const declared = Object.entries(DEFAULT_PITR).filter(([, on]) => on);
    expect(declared.map(([t]) => t).sort()).toEqual([
      "articles",
      "clusters",
      "fingerprints",
      "frontier",
      "sources",
    ]);
    expect(backups.map((l) => l.item).sort()).toEqual(
      declared.map(([t]) => `${t} PITR (the table's size)`).sort(),
    );
  });

  it("splits Clusters: story summaries for the longer of the hot window and the LSH retention, members and outlets for the hot window", () => {
    const lines = bill(lifecycle, 12);
    const summary = lines.find((l) => l.item.startsWith("clusters summary items"))!;
    const members = lines.find((l) => l.item.startsWith("clusters member and outlet items"))!;
    // The fixture's LSH retention, 90 days, is the longer: 90 + the archive's one day.
    expect(summary.quantity).toBeCloseTo((400 * PER_DAY * 91) / GB);
    expect(members.quantity).toBeCloseTo((700 * PER_DAY * 31) / GB);
    const { clusterSummaryBytes: _, ...unmeasured } = observed;
    expect(() => monthlyBill(unmeasured, settings, lifecycle, 1, PER_DAY)).toThrow(/clusterSummaryBytes/);
  });

  it("computes the ratio of storage and backups to processing, the lifecycle's far under today's at month 12", () => {
    const lines = bill(today, 12);
    const s = summarize(lines);
    const keep = sum(lines, (l) => l.category === "storage" || l.category === "backups");
    expect(s.keepRatio).toBeCloseTo(keep / sum(lines, (l) => l.category === "processing"));
    expect(s.total).toBeCloseTo(sum(lines, () => true));
    expect(summarize(bill(lifecycle, 12)).keepRatio).toBeLessThan(s.keepRatio / 2);
  });

  it("bills Standard-IA's cheaper storage with its dearer requests on the storage side", () => {
    const ia = lifecycleDesign(
      observed,
      lifecycleInputs({ tableClass: { fingerprints: "STANDARD_INFREQUENT_ACCESS" } }),
    );
    const std = bill(lifecycle, 12);
    const lines = bill(ia, 12);
    const gb = std.find((l) => l.item.startsWith("fingerprints ("))!.quantity;
    expect(lines.find((l) => l.item.startsWith("fingerprints ("))!.usd).toBeCloseTo(
      gb * PRICES.dynamoIaStoragePerGbMonth,
    );
    const premium = lines.find((l) => l.item === "fingerprints writes at Standard-IA (+25 %)")!;
    expect(premium.category).toBe("storage");
    expect(premium.usd).toBeCloseTo(0.25 * std.find((l) => l.item === "fingerprints writes")!.usd);
    expect(sum(lines, (l) => l.category === "processing")).toBeCloseTo(
      sum(std, (l) => l.category === "processing"),
    );
  });

  it("prices the archive's queries by the bytes scanned, at least 10 MB a query", () => {
    const athena = bill(lifecycle, 1).find((l) => l.service === "Athena")!;
    const perQuery = 7 * PER_DAY * (170 + 200);
    expect(athena.quantity).toBeCloseTo((100 * DAYS_PER_MONTH * perQuery) / TB);
    const tiny = monthlyBill(observed, settings, lifecycle, 1, 1000).find((l) => l.service === "Athena")!;
    expect(tiny.quantity).toBeCloseTo((100 * DAYS_PER_MONTH * PRICES.athenaMinBytesPerQuery) / TB);
    expect(bill(today, 1).some((l) => l.service === "Athena")).toBe(false);
  });
});
