/**
 * The bill over months' fixtures (bench/cost-over-time.ts): an observation with every table the crawl
 * writes, at about the metered run's bytes per article, the archive's measured figures, and the
 * lifecycle's default inputs. Each test overrides what it is about.
 */
import type { Observed } from "../../bench/cost-model";
import type { ArchivePlan } from "../../bench/cost-over-time";
import { DEFAULT_PITR, type LifecycleInputs } from "../../bench/lifecycle-designs";
import { observation } from "./cost-fixtures";

const table = (storedBytes: number, wru = 1, rru = 1) => ({ rru, wru, storedBytes });

export function lifecycleObservation(overrides: Partial<Observed> = {}): Observed {
  return observation({
    tables: {
      sources: table(20),
      hosts: table(10),
      frontier: table(500, 2),
      articles: table(2300, 4, 0),
      buckets: table(3000, 9, 10),
      fingerprints: table(1800, 2),
      clusters: table(1100, 6, 10),
    },
    clusterSummaryBytes: 400,
    s3: { puts: 0.1, gets: 0, storedBytes: 3000 },
    ...overrides,
  });
}

const ARCHIVE_PLAN: ArchivePlan = {
  bytes: {
    articleBytes: 1700,
    articleBytesWithoutBody: 170,
    storyBytes: 200,
    encodeCpuMsPerArticle: 0.2,
    codecs: ["SNAPPY"],
  },
  partRows: 100_000,
  uploadPartBytes: 5 * 2 ** 20,
  memoryMb: 1769,
  ioMsPerArticle: 0.2,
  runsPerDay: 2,
  query: { queriesPerDay: 100, daysPerQuery: 7, getsPerFile: 4 },
};

export function lifecycleInputs(overrides: Partial<LifecycleInputs> = {}): LifecycleInputs {
  return {
    hotWindowDays: 30,
    archiveLagDays: 1,
    lshRetentionDays: 90,
    frontierWindowDays: 30,
    pitr: DEFAULT_PITR,
    tableClass: {},
    archive: ARCHIVE_PLAN,
    ...overrides,
  };
}
