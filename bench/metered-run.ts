/**
 * The metered local run the cost model prices (`--only cost`) and the scale simulation takes its
 * per-article units from (`--only scale`): handlers one at a time, every AWS request counted, priced at
 * the topology's fetch batch, with the bench's default settings.
 */
import { deploySettings } from "../infra/deploy-settings";
import { topology } from "../infra/topology";
import { DEFAULT_LSH_RETENTION_DAYS } from "../shared/config/crawl-settings";
import type { Observed, Settings } from "./cost-model";
import { withFetchBatchSize } from "./fetch-batch";
import { runPipeline } from "./pipeline";

export interface MeteredRun {
  /** At the topology's fetch batch size. */
  readonly obs: Observed;
  /** Mean fetch batch the local run saw (fauxqs: one message per FIFO group per receive). */
  readonly observedFetchBatch: number;
  readonly requestCounts: unknown;
  readonly defaults: Settings;
}

/** The host delay the metered run crawls at and the cost model prices (the deployment's default). */
const PRICED_HOST_DELAY_MS = 1000;

export async function meteredRun(
  endpoints: Parameters<typeof runPipeline>[0]["endpoints"],
  quick: boolean,
  log: (s: string) => void,
): Promise<MeteredRun> {
  const [outlets, per] = quick ? [3, 15] : [5, 30];
  log(`metered run: ${outlets} outlets × ${per} pages, handlers one at a time …`);
  // At the delay it is priced at: discovery reserves each page's slot, fetch takes the pages as they come
  // (a daily burst: every outlet's pages discovered at once).
  const r = await runPipeline({
    endpoints,
    outlets,
    articlesPerOutlet: per,
    meter: true,
    hostDelayMs: PRICED_HOST_DELAY_MS,
    log,
  });
  // Priced at the topology's fetch batch: the local run's batches are smaller (its pages come at their
  // slots a few at a time), and invocations, their work and the receives follow the batch size.
  const fetchTrigger = topology.functions.fetch.trigger;
  const observed = r.observed;
  if (!observed) throw new Error("the metered run observed nothing");
  const obs = withFetchBatchSize(observed, fetchTrigger.kind === "queue" ? fetchTrigger.batchSize : 1);
  const defaults: Settings = {
    memoryMb: Object.fromEntries(Object.entries(topology.functions).map(([fn, s]) => [fn, s.memoryMb])),
    minHostDelayMs: PRICED_HOST_DELAY_MS,
    pageLatencyMs: 300,
    rawSampleRate: 0.1,
    lshBandsTotal: obs.lshBandsTotal,
    logLevel: "INFO",
    storageMonths: 1,
    lshRetentionMonths: DEFAULT_LSH_RETENTION_DAYS / 30,
    tracing: deploySettings({}).ops.tracing,
  };
  return { obs, observedFetchBatch: observed.fetchBatchSize, requestCounts: r.requestCounts, defaults };
}
