import { describe, expect, it } from "vitest";
import {
  costBreakdown,
  designFloor,
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
import { GB, PRICES } from "../../bench/prices";

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
  sqs: { fetchQueueRequests: 0.6, standardRequests: 0.3 },
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
  tracing: true,
  // Every page put back once: the arithmetic below counts each put-back (DAILY_BURST: fetch-batch.test.ts).
  fetchBatch: { pagesPerHost: 1, putBacksPerPage: 1, concurrentHosts: 3 },
};

describe("cost per million articles", () => {
  it("prices each line from its quantity", () => {
    const lines = costBreakdown(observed, settings);
    const wru = lines.find((l) => l.item === "buckets writes")!;
    expect(wru.quantity).toBe(40e6);
    expect(wru.usd).toBeCloseTo(40e6 * PRICES.dynamoPerWru);
    const fetchQueue = lines.find((l) => l.item.startsWith("fetch queue (send"))!;
    expect(fetchQueue.usd).toBeCloseTo(0.6e6 * PRICES.sqsStandardPerRequest);
    // Fetch's 0.2 invocations per article twice over (each page put back once), dedup's 0.1.
    const requests = lines.find((l) => l.service === "Lambda" && l.item === "requests")!;
    expect(requests.quantity).toBeCloseTo(0.5e6);
    expect(totalUsd(lines)).toBeCloseTo(lines.reduce((s, l) => s + l.usd, 0));
  });

  it("bills no host delay: a page whose host is not due waits in the queue", () => {
    const paced = totalUsd(costBreakdown(observed, settings));
    expect(totalUsd(costBreakdown(observed, { ...settings, minHostDelayMs: 5000 }))).toBeCloseTo(paced);
    // A page of the batch fetched waits only for its publisher: 1 round of 300 ms for 2.5 pages of a
    // batch of 5 (half put back), 0.4 invocations per article.
    const fetch = costBreakdown(observed, settings).find((l) => l.item.startsWith("fetch compute"))!;
    // The run's CPU stretched below a full vCPU (1,769 MB), and its I/O, over twice the deliveries.
    expect(fetch.quantity).toBeCloseTo(0.4e6 * lambdaGbSeconds((50 * (1769 / 1024) + 20) / 2 + 300, 1024));
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

  it("ingests metrics documents at every log level, a fetch batch's once per host in it", () => {
    const fetch = { ...observed.functions.fetch!, metricLogBytesPerGroup: 500 };
    const withDocs: Observed = { ...observed, functions: { ...observed.functions, fetch } };
    const extra = (s: Settings) => {
      const logs = (o: Observed) =>
        costBreakdown(o, s).find((l) => l.service === "CloudWatch Logs")!.quantity;
      return logs(withDocs) - logs(observed);
    };
    // A daily burst: a batch of 5 deliveries fetches 2.5 pages of 2.5 hosts (the rest put back), and
    // twice the invocations per article: one set of documents per fetched page either way.
    expect(extra(settings)).toBeCloseTo((1e6 * 500) / GB);
    expect(extra({ ...settings, logLevel: "WARN" })).toBeCloseTo((1e6 * 500) / GB);
    // A steady crawl: a page per host, five hosts' documents per batch of 5.
    const steady = { pagesPerHost: 1, putBacksPerPage: 0, concurrentHosts: 3 };
    expect(extra({ ...settings, fetchBatch: steady })).toBeCloseTo((0.2e6 * 5 * 500) / GB);
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

describe("design floor", () => {
  // The fixture with the tables the design writes per article, each at least what the floor counts.
  const design: Observed = {
    ...observed,
    tables: {
      ...observed.tables,
      frontier: { rru: 1, wru: 2, storedBytes: 400 },
      clusters: { rru: 6, wru: 4, storedBytes: 1000 },
    },
  };
  const item = (lines: ReturnType<typeof designFloor>, prefix: string) =>
    lines.find((l) => l.item.startsWith(prefix))!;

  it("counts the claim, the article, its band entries and look-ups, the cluster writes, storage, queues and the page wait", () => {
    const lines = designFloor(design, { ...settings, storageMonths: 3 });
    expect(lines.map((l) => l.quantity)).toEqual([
      1e6,
      8e6,
      40e6,
      20e6, // one eventually consistent query per band: half a read unit each
      2e6,
      ((6000 * 1e6) / 2 ** 30) * 3, // articles' bytes only, for 3 months
      0.12e6, // 300 ms at 1024 MB, 0.4 of it billed (2.5 pages fetched in a batch of 5, in one round)
      0.6e6, // 2 queues × 3 requests, 10 messages each
    ]);
    expect(item(lines, "article item").quantity).toBe(design.tables.articles!.wru * 1e6);
    expect(item(lines, "LSH entries").quantity).toBe(settings.lshBandsTotal * 1e6);
    expect(item(lines, "article storage").item).toBe("article storage (3 months)");
    expect(item(lines, "article storage").usd).toBeCloseTo(
      ((6000 * 3e6) / 2 ** 30) * PRICES.dynamoStoragePerGbMonth,
    );
    expect(totalUsd(lines)).toBeCloseTo(
      51e6 * PRICES.dynamoPerWru +
        20e6 * PRICES.dynamoPerRru +
        ((6000 * 3e6) / 2 ** 30) * 0.25 +
        0.12e6 * PRICES.lambdaArmPerGbSecond +
        0.6e6 * PRICES.sqsStandardPerRequest,
    );
  });

  it("is a subset of the full breakdown of the same observation", () => {
    for (const s of [settings, { ...settings, storageMonths: 12 }, { ...settings, lshBandsTotal: 4 }]) {
      const floor = designFloor(design, s);
      const full = costBreakdown(design, s);
      expect(totalUsd(floor)).toBeLessThanOrEqual(totalUsd(full));
      // Line by line too: each floor write is within what the run measured on its table.
      const writes = (table: string) => full.find((l) => l.item === `${table} writes`)!.quantity;
      expect(item(floor, "frontier claim").quantity).toBeLessThanOrEqual(writes("frontier"));
      expect(item(floor, "article item").quantity).toBeLessThanOrEqual(writes("articles"));
      expect(item(floor, "LSH entries").quantity).toBeLessThanOrEqual(writes("buckets"));
      expect(item(floor, "cluster member").quantity).toBeLessThanOrEqual(writes("clusters"));
      const storage = full.find((l) => l.service === "DynamoDB" && l.item.startsWith("storage"))!;
      expect(item(floor, "article storage").quantity).toBeLessThanOrEqual(storage.quantity);
    }
  });

  it("grows by one entry and one look-up per LSH band and ignores settings the design does not fix", () => {
    const at = (change: Partial<Settings>) => totalUsd(designFloor(design, { ...settings, ...change }));
    const perBand = 1e6 * (PRICES.dynamoPerWru + 0.5 * PRICES.dynamoPerRru);
    for (const bands of [4, 6, 10]) {
      expect(at({ lshBandsTotal: bands + 1 }) - at({ lshBandsTotal: bands })).toBeCloseTo(perBand, 9);
    }
    expect(at({ lshBandsTotal: 10 }) - at({ lshBandsTotal: 4 })).toBeCloseTo(6 * perBand, 9);
    const base = at({});
    expect(at({ minHostDelayMs: 0, logLevel: "WARN", rawSampleRate: 1, memoryMb: { dedup: 4096 } })).toBe(
      base,
    );
    // The page wait is billed at the fetch function's memory.
    const wait = (mb: number) =>
      item(designFloor(design, { ...settings, memoryMb: { fetch: mb } }), "fetch waiting").quantity;
    expect(wait(256)).toBeCloseTo(wait(1024) / 4);
  });

  it("throws when the observation has no articles table", () => {
    const { articles: _, ...tables } = design.tables;
    expect(() => designFloor({ ...design, tables }, settings)).toThrow(/articles table/);
  });
});

describe("tracing", () => {
  it("prices X-Ray only when the deployment turns tracing on", () => {
    const on = costBreakdown(observed, settings).filter((l) => l.service === "X-Ray");
    const off = costBreakdown(observed, { ...settings, tracing: false }).filter((l) => l.service === "X-Ray");
    expect(on).toHaveLength(1);
    expect(on[0]!.usd).toBeGreaterThan(0);
    expect(off).toEqual([]);
  });
});
