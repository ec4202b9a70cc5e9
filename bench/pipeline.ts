/**
 * A full local run (discover → fetch → dedup through the Lambda handlers on DynamoDB Local and
 * fauxqs) over a generated loopback news web, timed per stage. With `meter`, the handlers run one
 * at a time so each invocation's CPU time, wall time and log bytes are its own, and every AWS
 * request is recorded (bench/request-meter.ts): that is what the cost model prices.
 *
 * Set POWERTOOLS_LOG_LEVEL before importing this module: the handlers' loggers read it at import.
 */

import { LocalRuntime, type RunCounts } from "../infra/local/runtime";
import type { Endpoints } from "../shared/aws/clients";
import { observeClients } from "../shared/aws/clients";
import { matchParams } from "../shared/dedup/params";
import { dynamoItemSize, type Observed } from "./cost-model";
import { startNewsWeb } from "./news-web";
import { entry, RequestMeter } from "./request-meter";

export interface PipelineOptions {
  readonly endpoints: Required<Endpoints>;
  readonly outlets: number;
  readonly articlesPerOutlet: number;
  /** Run handlers one at a time and record every request (for the cost model). */
  readonly meter?: boolean;
  readonly concurrency?: { fetch: number; dedup: number };
  readonly rawSampleRate?: number;
  /** STORYTRAIL_MIN_HOST_DELAY_MS of the run (default 0: as fast as the hosts answer). */
  readonly hostDelayMs?: number;
  readonly log?: (line: string) => void;
}

export interface FunctionTimes {
  invocations: number;
  messages: number;
  wallMs: number;
  cpuMs: number;
  logBytes: number;
  /** Of logBytes, the metrics (EMF) documents: printed at every log level. */
  metricLogBytes: number;
  /** Hosts handled, summed over invocations: a fetch batch's hosts, else one per invocation. */
  groups: number;
  /** First start to last end of this function's invocations. */
  spanMs: number;
}

export interface PipelineResult {
  readonly pages: number;
  readonly htmlBytes: number;
  readonly counts: RunCounts;
  readonly wallMs: number;
  readonly pagesPerSecond: number;
  readonly functions: Record<string, FunctionTimes>;
  readonly observed?: Observed;
  readonly requestCounts?: Record<string, Record<string, number>>;
}

/** A handler with the Lambda context the local runtime passes (its loggers add the context's keys to every line, as in Lambda). */
type Handler = (event: unknown, context?: unknown) => Promise<unknown>;

/** The host of a fetch message's URL (a batch's metrics documents are one per host's source). */
function hostOfBody(body: string | undefined): string {
  try {
    return new URL((JSON.parse(body ?? "{}") as { url?: string }).url ?? "").host;
  } catch {
    return body ?? "";
  }
}

/** Serialises invocations when asked, and times each one. */
function timer(serial: boolean) {
  let chain: Promise<unknown> = Promise.resolve();
  const times: Record<string, FunctionTimes & { first: number; last: number }> = {};
  let current: string | null = null;
  const wrap =
    (fn: string, h: Handler): Handler =>
    (event, context) => {
      const run = async () => {
        const t = entry(times, fn, () => ({
          invocations: 0,
          messages: 0,
          wallMs: 0,
          cpuMs: 0,
          logBytes: 0,
          metricLogBytes: 0,
          groups: 0,
          spanMs: 0,
          first: Number.POSITIVE_INFINITY,
          last: 0,
        }));
        const records = (event as { Records?: { body?: string }[] }).Records;
        current = fn;
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        try {
          return await h(event, context);
        } finally {
          const t1 = performance.now();
          const c = process.cpuUsage(c0);
          t.invocations++;
          t.messages += records?.length ?? 0;
          t.groups += fn === "fetch" ? new Set(records?.map((r) => hostOfBody(r.body))).size || 1 : 1;
          t.wallMs += t1 - t0;
          t.cpuMs += (c.user + c.system) / 1000;
          t.first = Math.min(t.first, t0);
          t.last = Math.max(t.last, t1);
          t.spanMs = t.last - t.first;
          current = null;
        }
      };
      if (!serial) return run();
      const p = chain.then(run);
      chain = p.catch(() => undefined);
      return p;
    };
  return { wrap, times, current: () => current };
}

export async function runPipeline(opts: PipelineOptions): Promise<PipelineResult> {
  const log = opts.log ?? (() => {});
  const web = await startNewsWeb({ outlets: opts.outlets, articlesPerOutlet: opts.articlesPerOutlet });
  const meter = opts.meter ? new RequestMeter() : null;
  let label = "runtime";
  const t = timer(Boolean(opts.meter));
  // A client a handler makes mid-invocation (fetch's S3 client, on the first sample) is its too.
  const unobserve = meter ? observeClients((c) => meter.attach(c, t.current() ?? label)) : () => {};
  // Handler logs (JSON lines on stdout, as in Lambda) are counted per function, not printed. Lambda
  // ingests stderr too (Powertools Metrics warns there): counted while a handler runs, and printed.
  const count = (chunk: string | Uint8Array) => {
    const fn = t.current();
    const tt = fn ? t.times[fn] : undefined;
    if (!tt) return;
    const bytes = typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
    tt.logBytes += bytes;
    if (String(chunk).includes('"_aws":')) tt.metricLogBytes += bytes;
  };
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    count(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    count(chunk);
    return writeErr(chunk);
  }) as typeof process.stderr.write;
  const prefix = `bench${Date.now().toString(36)}${opts.meter ? "m" : "t"}`;
  let runtime: LocalRuntime | undefined;
  try {
    const rawSampleRate = opts.rawSampleRate ?? 0.1;
    runtime = await LocalRuntime.start({
      endpoints: opts.endpoints,
      prefix,
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: String(opts.hostDelayMs ?? 0),
        STORYTRAIL_RAW_SAMPLE_RATE: String(rawSampleRate),
      },
      concurrency: opts.concurrency ?? { fetch: 4, dedup: 2 },
      // Each handler is made on first use, with its clients: time it from then on.
      instrument: (fn, make) => {
        label = fn; // clients made by the handler's factory are metered under its name
        const handler = t.wrap(fn, make() as Handler);
        label = "runtime";
        return handler;
      },
    });
    label = "runtime";
    const t0 = performance.now();
    const runId = `${prefix}-run`;
    const summary = await runtime.discover({ sources: web.sources, run_id: runId });
    log(`  discover: ${JSON.stringify(summary).slice(0, 160)}`);
    let done = 0;
    const onBatch = (p: { fn: string; received: number }) => {
      if (p.fn !== "fetch") return;
      done += p.received;
      if (done % 200 < p.received) log(`  fetched ${done}/${web.pages}`);
    };
    // Metered, fetch drains first and dedup then takes its backlog in full batches, as in a daily burst
    // (interleaved, one handler at a time, dedup took each article almost alone: 0.7 invocations and 2.4
    // dedup-queue requests per article instead of ~0.1 and ~0.3).
    if (opts.meter) await runtime.drain({ maxMs: 20 * 60_000, onBatch, only: ["fetch"] });
    await runtime.drain({ maxMs: 20 * 60_000, onBatch });
    const wallMs = performance.now() - t0;
    const counts = await runtime.runCounts(runId);
    const functions: Record<string, FunctionTimes> = {};
    for (const [fn, v] of Object.entries(t.times)) {
      const { first: _f, last: _l, ...rest } = v;
      functions[fn] = rest;
    }
    const result = {
      pages: web.pages,
      htmlBytes: web.htmlBytes,
      counts,
      wallMs,
      pagesPerSecond: counts.articles / (wallMs / 1000),
      functions,
    };
    if (!meter) return result;
    return {
      ...result,
      observed: await observe(runtime, meter, functions, counts.articles, rawSampleRate),
      requestCounts: meter.counts(),
    };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
    unobserve();
    await runtime?.close();
    await web.close();
  }
}

/** Turns a metered run into per-article quantities for the cost model. */
async function observe(
  runtime: LocalRuntime,
  meter: RequestMeter,
  functions: Record<string, FunctionTimes>,
  articles: number,
  rawSampleRate: number,
): Promise<Observed> {
  // What Lambda's event source mapping does (receive, delete, retry) is billed; the runtime's own
  // bookkeeping (queue depth, scans for the summary) has no counterpart in AWS.
  const esm = new Set(["ReceiveMessage", "DeleteMessageBatch", "ChangeMessageVisibilityBatch"]);
  const billed = meter.requests.filter(
    (r) =>
      r.label !== "runtime" ||
      (r.service === "sqs" && esm.has(r.op) && (r.op !== "ReceiveMessage" || r.received > 0)),
  );
  const logical = new Map(Object.entries(runtime.resources.tables).map(([k, v]) => [v, k]));
  const tables: Record<string, { rru: number; wru: number; storedBytes: number }> = {};
  for (const r of billed) {
    for (const [phys, u] of Object.entries(r.byTable)) {
      const t = entry(tables, logical.get(phys) ?? phys, () => ({ rru: 0, wru: 0, storedBytes: 0 }));
      t.rru += u.rru / articles;
      t.wru += u.wru / articles;
    }
  }
  let clusterSummaryBytes = 0;
  for (const table of Object.keys(runtime.resources.tables) as (keyof typeof runtime.resources.tables)[]) {
    const items = await runtime.items(table);
    const t = entry(tables, table, () => ({ rru: 0, wru: 0, storedBytes: 0 }));
    const stored = (its: readonly Record<string, unknown>[]) =>
      its.reduce((s, it) => s + dynamoItemSize(it) + 100, 0) / articles;
    t.storedBytes = stored(items);
    if (table === "clusters") clusterSummaryBytes = stored(items.filter((it) => it.item === "summary"));
  }
  const sum = (f: (r: (typeof billed)[number]) => number) => billed.reduce((s, r) => s + f(r), 0) / articles;
  const fnObs: Observed["functions"] = Object.fromEntries(
    Object.entries(functions).map(([fn, f]) => [
      fn,
      {
        invocationsPerArticle: f.invocations / articles,
        cpuMs: f.cpuMs / f.invocations,
        ioMs: Math.max(0, f.wallMs - f.cpuMs) / f.invocations,
        appLogBytes: (f.logBytes - f.metricLogBytes) / f.invocations,
        metricLogBytesPerGroup: f.metricLogBytes / f.groups,
      },
    ]),
  );
  const fetch = functions.fetch;
  const hostsTable = runtime.resources.tables.hosts;
  const fetchQueue = runtime.resources.queueUrls.fetch;
  const dedupQueue = runtime.resources.queueUrls.dedup;
  return {
    articles,
    functions: fnObs,
    fetchBatchSize: fetch ? fetch.messages / fetch.invocations : 1,
    // Each page of the run is fetched once: the rest of fetch's
    // deliveries were put back until their host's slot.
    fetchPutBacks: fetch ? Math.max(0, fetch.messages / articles - 1) : 0,
    sqs: {
      fetchQueueRequests: sum((r) => (r.resource === fetchQueue ? r.sqsBilled : 0)),
      standardRequests: sum((r) => (r.service === "sqs" && r.resource !== fetchQueue ? r.sqsBilled : 0)),
      fetchDedupSends: sum((r) => (r.label === "fetch" && r.resource === dedupQueue ? r.sqsBilled : 0)),
    },
    tables,
    clusterSummaryBytes,
    fetchPacing: {
      rru: sum((r) => (r.label === "fetch" ? (r.byTable[hostsTable]?.rru ?? 0) : 0)),
      wru: sum((r) => (r.label === "fetch" ? (r.byTable[hostsTable]?.wru ?? 0) : 0)),
    },
    s3: {
      puts: sum((r) => (r.op === "PutObject" ? 1 : 0)),
      gets: sum((r) => (r.op === "GetObject" ? 1 : 0)),
      storedBytes: sum((r) => r.putBytes),
    },
    rawSampleRate,
    lshBandsTotal: matchParams.bands + matchParams.ledeBands,
  };
}
