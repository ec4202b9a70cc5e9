/**
 * The least a million articles can cost once issue 15's fixed decisions are counted: the design floor
 * (cost-model.ts designFloor, which counts only the writes, look-ups, storage, queue passages and page
 * wait every article needs) plus what those decisions make every article cost however the code is
 * written, each at its least:
 * - pacing stays in the fetch Lambda (one FIFO group per host and the Hosts table), from the end of one
 *   request to the start of the next: in a daily burst SQS fills a batch from one host, so each page
 *   waits out the host delay as well as its latency, billed even at Lambda's smallest size (128 MB);
 * - each request goes through the Hosts table: one reservation per host's chain of pages in a batch, one
 *   write as each request ends (shared/aws/host-pace-table.ts);
 * - nothing is lost: every fetched URL's outcome is written to its Frontier item;
 * - dedup quality unchanged: the fingerprint is kept, written once (its two MinHash signatures alone
 *   are 640 bytes: a write unit; with its sketches the bench's articles take two), and dedup's CPU
 *   is spent (below a full vCPU its GB-seconds do not depend on the size);
 * - the LSH index in DynamoDB: each band's item stores at least DynamoDB's 100 bytes of overhead, the
 *   article id and an 8-byte band hash.
 * Everything else (candidate and cluster reads, the second look, cluster writes past member + summary,
 * logs, samples, discovery) still counts as free.
 */
import { fingerprintParams } from "../shared/dedup/params";
import {
  type CostLine,
  costLine,
  designFloor,
  FULL_VCPU_MB,
  lambdaGbSeconds,
  type Observed,
  type Settings,
  writeUnits,
} from "./cost-model";
import { fetchBatchRounds, fetchBatchWaitMs } from "./fetch-batch";
import { GB, PRICES, type Prices } from "./prices";

/** Lambda's smallest memory size. */
const LAMBDA_MIN_MB = 128;
/** Bytes of a fingerprint's two MinHash signatures (the body's and the lede's), always full. */
export const FINGERPRINT_SIGNATURE_BYTES = 4 * (fingerprintParams.numPerm + fingerprintParams.ledePerms);
/** A band item at its least: DynamoDB's per-item overhead, the article id (32 hex) and a band hash. */
const MIN_BAND_ITEM_BYTES = 100 + 32 + 8;

export function fixedDecisionsBound(obs: Observed, s: Settings, prices: Prices = PRICES): CostLine[] {
  const M = 1e6;
  const floor = designFloor(obs, s, prices).filter((l) => !l.item.startsWith("fetch waiting"));
  const batch = obs.fetchBatchSize;
  const { pagesPerHost } = fetchBatchRounds(batch, s);
  const pageWaitMs = fetchBatchWaitMs(batch, s) / batch;
  const dedup = obs.functions.dedup;
  const dedupCpuMsPerArticle = dedup ? dedup.cpuMs * dedup.invocationsPerArticle : 0;
  const bandMonths = Math.min(s.storageMonths, s.lshRetentionMonths);
  return [
    ...floor,
    costLine(
      "Lambda",
      `fetch waiting for the page and the host delay (${pageWaitMs.toFixed(0)} ms a page at ${LAMBDA_MIN_MB} MB)`,
      M * lambdaGbSeconds(pageWaitMs, LAMBDA_MIN_MB),
      "GB-s",
      prices.lambdaArmPerGbSecond,
    ),
    costLine(
      "DynamoDB",
      `Hosts: a reservation per host's ${pagesPerHost} pages, a write as each ends`,
      M * ((pagesPerHost + 1) / pagesPerHost),
      "WRU",
      prices.dynamoPerWru,
    ),
    costLine("DynamoDB", "Frontier: the fetch outcome recorded", M, "WRU", prices.dynamoPerWru),
    costLine(
      "DynamoDB",
      `the fingerprint written once (its signatures alone ${FINGERPRINT_SIGNATURE_BYTES} bytes)`,
      M * writeUnits(FINGERPRINT_SIGNATURE_BYTES),
      "WRU",
      prices.dynamoPerWru,
    ),
    costLine(
      "Lambda",
      `dedup's CPU (${dedupCpuMsPerArticle.toFixed(1)} ms an article at a full vCPU)`,
      M * lambdaGbSeconds(dedupCpuMsPerArticle, FULL_VCPU_MB),
      "GB-s",
      prices.lambdaArmPerGbSecond,
    ),
    costLine(
      "DynamoDB",
      `LSH items' storage (${MIN_BAND_ITEM_BYTES} bytes each at least)`,
      (M * s.lshBandsTotal * MIN_BAND_ITEM_BYTES * bandMonths) / GB,
      "GB-month",
      prices.dynamoStoragePerGbMonth,
    ),
  ];
}
