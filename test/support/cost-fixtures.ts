/**
 * A metered observation and the cost model's settings for the bench's unit tests: one fetch batch of 10
 * pages a tenth of an invocation per article, the defaults the bench prices (1 s host delay, 300 ms
 * page latency, 10 % samples, 8 bands, INFO, a month of storage). Each test overrides what it is about.
 */
import type { Observed, Settings } from "../../bench/cost-model";

export function observation(overrides: Partial<Observed> = {}): Observed {
  return {
    articles: 100,
    functions: { fetch: { invocationsPerArticle: 0.1, cpuMs: 100, ioMs: 200, appLogBytes: 3000 } },
    fetchBatchSize: 10,
    sqs: { fetchQueueRequests: 0.3, standardRequests: 0.3 },
    tables: { articles: { rru: 0, wru: 5, storedBytes: 5000 } },
    s3: { puts: 0, gets: 0, storedBytes: 0 },
    rawSampleRate: 0.1,
    lshBandsTotal: 8,
    ...overrides,
  };
}

export function costSettings(overrides: Partial<Settings> = {}): Settings {
  return {
    memoryMb: { fetch: 1769 },
    minHostDelayMs: 1000,
    pageLatencyMs: 300,
    rawSampleRate: 0.1,
    lshBandsTotal: 8,
    logLevel: "INFO",
    storageMonths: 1,
    lshRetentionMonths: 3,
    tracing: false,
    // The shape the model's arithmetic is checked at: every page put back once (DAILY_BURST is tested
    // on its own in fetch-batch.test.ts).
    fetchBatch: { pagesPerHost: 1, putBacksPerPage: 1, concurrentHosts: 3 },
    ...overrides,
  };
}
