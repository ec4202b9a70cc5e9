/**
 * The least a million articles can cost under the decisions issue 26 fixed: the design floor
 * (cost-model.ts designFloor, which counts only the writes, look-ups, storage, queue passages and page
 * wait every article needs) plus what those decisions make every article cost however the code is
 * written, each at its least:
 * - pacing out of the fetch function: a page whose host is not due waits in the queue, so the function
 *   waits only for the publisher, its hosts overlapping (the floor's share), billed even at Lambda's
 *   smallest size (128 MB);
 * - the Hosts lease is the one source of truth (one request per host at once, an interval from the end
 *   of one to the start of the next): every request takes the host and frees it, two writes at least
 *   (the admission's read, and a page put back before its slot, are not: discovery could spread a
 *   host's pages so each comes when it is due, and the take could be a conditional write alone);
 * - nothing is lost: every fetched URL's outcome is written to its Frontier item;
 * - dedup quality unchanged: the fingerprint is kept, written once (its two MinHash signatures alone
 *   are 640 bytes: a write unit; with its sketches the bench's articles take two), and dedup's CPU
 *   is spent (below a full vCPU its GB-seconds do not depend on the size);
 * - the LSH index in DynamoDB with today's bands: each band's item stores at least DynamoDB's 100 bytes
 *   of overhead, the article id and an 8-byte band hash.
 * Everything else (candidate and cluster reads, the second look, cluster writes past member + summary,
 * put-backs, logs, samples, discovery) still counts as free.
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
import { fetchPageWaitShare } from "./fetch-batch";
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
  const waitShare = fetchPageWaitShare(obs.fetchBatchSize, s);
  const pageWaitMs = s.pageLatencyMs * waitShare;
  const dedup = obs.functions.dedup;
  const dedupCpuMsPerArticle = dedup ? dedup.cpuMs * dedup.invocationsPerArticle : 0;
  const bandMonths = Math.min(s.storageMonths, s.lshRetentionMonths);
  return [
    ...floor,
    costLine(
      "Lambda",
      `fetch waiting for the page only (${pageWaitMs.toFixed(0)} ms a page billed, hosts overlapping, at ${LAMBDA_MIN_MB} MB)`,
      M * lambdaGbSeconds(pageWaitMs, LAMBDA_MIN_MB),
      "GB-s",
      prices.lambdaArmPerGbSecond,
    ),
    costLine(
      "DynamoDB",
      "Hosts: the lease taken and freed around each request",
      2 * M,
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
