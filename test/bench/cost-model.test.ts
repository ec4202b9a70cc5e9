import { describe, expect, it } from "vitest";
import {
  costBreakdown,
  dynamoItemSize,
  lambdaGbSeconds,
  type Observed,
  readUnits,
  type Settings,
  sensitivity,
  sqsBilledRequests,
  totalUsd,
  writeUnits,
} from "../../bench/cost-model";
import { PRICES } from "../../bench/prices";

const KB = 1024;

describe("DynamoDB capacity units", () => {
  it("reads are billed in 4 KB units: strong 1, eventual 0.5, transactional 2", () => {
    expect(readUnits(3.5 * KB, "strong")).toBe(1);
    expect(readUnits(3.5 * KB, "eventual")).toBe(0.5);
    expect(readUnits(4 * KB + 1, "strong")).toBe(2);
    expect(readUnits(3.5 * KB, "transactional")).toBe(2);
    expect(readUnits(0, "strong")).toBe(1); // a read of a missing item still costs a unit
  });

  it("writes are billed in 1 KB units and doubled in a transaction", () => {
    expect(writeUnits(2.1 * KB)).toBe(3);
    expect(writeUnits(1 * KB)).toBe(1);
    expect(writeUnits(100)).toBe(1);
    expect(writeUnits(2.1 * KB, true)).toBe(6);
  });

  it("sizes items as attribute names plus values", () => {
    expect(dynamoItemSize({ id: "abc" })).toBe(5);
    expect(dynamoItemSize({ ok: true, n: null })).toBe(5);
    expect(dynamoItemSize({ body: "é".repeat(10) })).toBe(4 + 20);
    expect(dynamoItemSize({ n: 12345 })).toBeGreaterThanOrEqual(4);
  });
});

describe("SQS and Lambda billing", () => {
  it("bills each 64 KB chunk of a payload as one request", () => {
    expect(sqsBilledRequests(10)).toBe(1);
    expect(sqsBilledRequests(64 * KB)).toBe(1);
    expect(sqsBilledRequests(64 * KB + 1)).toBe(2);
    expect(sqsBilledRequests(256 * KB)).toBe(4);
  });

  it("bills Lambda in whole milliseconds times memory", () => {
    expect(lambdaGbSeconds(1000, 1024)).toBe(1);
    expect(lambdaGbSeconds(0.2, 512)).toBeCloseTo(0.0005);
    expect(lambdaGbSeconds(1500, 2048)).toBe(3);
  });
});

const observed: Observed = {
  articles: 100,
  functions: {
    fetch: { invocationsPerArticle: 0.2, cpuMs: 50, ioMs: 20, appLogBytes: 300 },
    dedup: { invocationsPerArticle: 0.1, cpuMs: 30, ioMs: 100, appLogBytes: 2000 },
  },
  fetchBatchSize: 5,
  sqs: { fifoRequests: 0.6, standardRequests: 0.3 },
  tables: {
    buckets: { rru: 40, wru: 40, storedBytes: 4000 },
    articles: { rru: 1, wru: 8, storedBytes: 6000 },
  },
  s3: { puts: 0.1, gets: 0, storedBytes: 3000 },
  rawSampleRate: 0.1,
  lshBandsTotal: 40,
};
const settings: Settings = {
  memoryMb: { fetch: 1024, dedup: 512 },
  minHostDelayMs: 1000,
  pageLatencyMs: 300,
  rawSampleRate: 0.1,
  lshBandsTotal: 40,
  logLevel: "INFO",
  storageMonths: 1,
  lshRetentionMonths: 3,
};

describe("cost per million articles", () => {
  it("prices each line from its quantity", () => {
    const lines = costBreakdown(observed, settings);
    const wru = lines.find((l) => l.item === "buckets writes")!;
    expect(wru.quantity).toBe(40e6);
    expect(wru.usd).toBeCloseTo(40e6 * PRICES.dynamoPerWru);
    const fifo = lines.find((l) => l.item.startsWith("FIFO"))!;
    expect(fifo.usd).toBeCloseTo(0.6e6 * PRICES.sqsFifoPerRequest);
    const requests = lines.find((l) => l.service === "Lambda" && l.item === "requests")!;
    expect(requests.quantity).toBeCloseTo(0.3e6);
    expect(totalUsd(lines)).toBeCloseTo(lines.reduce((s, l) => s + l.usd, 0));
  });

  it("charges the host delay each fetched page waits out", () => {
    const paced = totalUsd(costBreakdown(observed, settings));
    const unpaced = totalUsd(costBreakdown(observed, { ...settings, minHostDelayMs: 0 }));
    // 5 waits of 700 ms per batch of 5 at 1 GB, 0.2 batches per article
    const expected = 0.2e6 * lambdaGbSeconds(5 * 700, 1024) * PRICES.lambdaArmPerGbSecond;
    expect(paced - unpaced).toBeCloseTo(expected, 1);
  });

  it("scales bucket capacity with the bands and S3 with the sample rate", () => {
    const alts = sensitivity(observed, settings, [
      { label: "half the bands", change: { lshBandsTotal: 20 } },
      { label: "no raw samples", change: { rawSampleRate: 0 } },
    ]);
    const bands = alts.find((a) => a.label === "half the bands")!;
    expect(bands.deltaUsd).toBeCloseTo(
      -20e6 * (PRICES.dynamoPerWru + PRICES.dynamoPerRru) - (2000 * 1e6 * 0.25) / 2 ** 30,
      2,
    );
    const raw = alts.find((a) => a.label === "no raw samples")!;
    expect(raw.deltaUsd).toBeLessThan(0);
    expect(Math.abs(alts[0]!.deltaUsd)).toBeGreaterThanOrEqual(Math.abs(alts[1]!.deltaUsd));
  });

  it("stores bucket entries only for their retention period", () => {
    const storage = (months: number) =>
      costBreakdown(observed, { ...settings, storageMonths: months }).find((l) =>
        l.item.startsWith("storage"),
      )!.quantity;
    // Articles' 6,000 bytes accrue every month; the buckets' 4,000 only for the first 3.
    expect(storage(1)).toBeCloseTo((10_000 * 1e6) / 2 ** 30);
    expect(storage(12)).toBeCloseTo(((12 * 6_000 + 3 * 4_000) * 1e6) / 2 ** 30);
  });
});
