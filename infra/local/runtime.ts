/**
 * The local runtime: the topology's resources on local emulators, and the same handlers driven the way
 * Lambda drives them (schedule → invoke; SQS → batches with partial failures, retries and DLQ redrive;
 * DynamoDB stream → consumer). Only endpoints differ from AWS.
 */
import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { paginateScan } from "@aws-sdk/lib-dynamodb";
import type { Context, SQSEvent } from "aws-lambda";
import { createArchiveHandler } from "../../lambdas/archive";
import { createBackfillHandler } from "../../lambdas/backfill";
import { createDedupHandler } from "../../lambdas/dedup";
import { createDiscoverHandler } from "../../lambdas/discover";
import { createDispatchHandler, type DispatchEvent } from "../../lambdas/dispatch";
import { createFetchHandler } from "../../lambdas/fetch";
import { createQualityHandler } from "../../lambdas/quality";
import { freeAbandonedHostLeases } from "../../shared/aws/abandoned-host-leases";
import {
  type AwsClients,
  destroyClients,
  ENDPOINT_ENV,
  type Endpoints,
  makeClients,
} from "../../shared/aws/clients";
import { SourceCatalogTable } from "../../shared/aws/source-catalog-table";
import type { DiscoverRunSummary } from "../../shared/crawl/discover-run";
import type { DispatchSummary } from "../../shared/crawl/dispatch-run";
import { DEFAULT_SOURCE_SCHEDULE } from "../../shared/discover/cadence";
import { applySourcesDiff, diffSources, type SourcesDiff } from "../../shared/discover/source-catalog";
import { parseSources } from "../../shared/discover/sources";
import {
  consumerOf,
  environmentFor,
  type FunctionName,
  type QueueName,
  queueNames,
  topology,
} from "../topology";
import { localLambdaContext } from "./lambda-context";
import { createLocalResources, type LocalResources } from "./resources";
import { pumpOnce, type SqsHandler } from "./sqs-driver";
import { type StreamConsumer, type StreamSubscription, subscribeStream } from "./stream-driver";
import { TtlDeletionLog, ttlDeletionsTable } from "./ttl-deletions";
import { type SweepCounts, sweepExpired } from "./ttl-sweeper";

const REGION = "us-east-1";

export interface LocalRuntimeOptions {
  readonly endpoints: Required<Endpoints>;
  /** Prefix of every table, queue and bucket name: tests give each test its own. */
  readonly prefix: string;
  /** Extra environment for every function, e.g. STORYTRAIL_ALLOW_PRIVATE_ADDRESSES for loopback sites. */
  readonly settings?: Readonly<Record<string, string>>;
  /** Concurrent invocations per queue-triggered function (Lambda's concurrency, scaled down). */
  readonly concurrency?: Partial<Record<QueueName, number>>;
  /** How long a received batch stays invisible (the stand-in for the function timeout; default 120). */
  readonly visibilitySeconds?: number;
  /** How long a failed message waits before it is retried (default 0, for tests; Lambda waits the
   * queue's visibility timeout; `storytrail crawl` waits 30 s unless told otherwise). */
  readonly retryDelaySeconds?: number;
  /** Makes each handler through `make` and may wrap it (benchmarks time and meter them this way). */
  readonly instrument?: (fn: FunctionName, make: () => LocalHandler) => LocalHandler;
}

export interface DrainProgress {
  readonly fn: FunctionName;
  readonly received: number;
  readonly failed: number;
}

export interface DrainStats {
  readonly batches: Record<string, number>;
  readonly messages: Record<string, number>;
  readonly failedDeliveries: Record<string, number>;
  /** Deliveries the handler put back until a time (fetch: the page's host was not due). */
  readonly putBack: Record<string, number>;
}

export interface RunCounts {
  readonly run_id: string;
  readonly claimed: number;
  /** URLs that became an article (several URLs may become one article through rel=canonical). */
  readonly articles: number;
  readonly distinct_articles: number;
  readonly failed: number;
  readonly pending: number;
  readonly failure_reasons: Record<string, number>;
  readonly dead_lettered: Record<QueueName, number>;
  readonly clusters: number;
  readonly clustered_articles: number;
}

export type LocalHandler = (event: unknown, context: Context) => Promise<unknown>;

/** A local discovery run: what the dispatcher sent and what each source's discovery found. */
export interface LocalDiscoveryRun extends DiscoverRunSummary {
  readonly dispatch: DispatchSummary;
}

export class LocalRuntime {
  private readonly handlers = new Map<FunctionName, LocalHandler>();
  /** Collects the discover λ's per-source runs while discoverDue works the discover queue off (from the
   * handler the runtime makes; one an `instrument` supplies without calling `make` reports none). */
  private discoverRuns: DiscoverRunSummary[] | undefined;

  private constructor(
    readonly clients: AwsClients,
    readonly resources: LocalResources,
    private readonly opts: LocalRuntimeOptions,
  ) {}

  static async start(opts: LocalRuntimeOptions): Promise<LocalRuntime> {
    const clients = makeClients(opts.endpoints, REGION);
    const resources = await createLocalResources(clients, opts.prefix);
    return new LocalRuntime(clients, resources, opts);
  }

  /** The environment a function sees: its resources (from the topology) plus the emulator endpoints. */
  env(fn: FunctionName): Record<string, string> {
    return {
      ...environmentFor(fn, this.resources),
      [ENDPOINT_ENV.dynamodb]: this.opts.endpoints.dynamodb,
      [ENDPOINT_ENV.sqs]: this.opts.endpoints.sqs,
      [ENDPOINT_ENV.s3]: this.opts.endpoints.s3,
      AWS_REGION: REGION,
      ...this.opts.settings,
    };
  }

  private handler(fn: FunctionName): LocalHandler {
    let h = this.handlers.get(fn);
    if (!h) {
      const env = this.env(fn);
      const factories = {
        dispatch: () => createDispatchHandler(env),
        discover: () => createDiscoverHandler(env, { onRun: (run) => this.discoverRuns?.push(run) }),
        fetch: () => createFetchHandler(env),
        dedup: () => createDedupHandler(env),
        quality: () => createQualityHandler(env),
        backfill: () => createBackfillHandler(env),
        archive: () => createArchiveHandler(env),
      } satisfies Record<FunctionName, () => unknown>;
      const make = () => factories[fn]() as LocalHandler;
      h = this.opts.instrument ? this.opts.instrument(fn, make) : make();
      this.handlers.set(fn, h);
    }
    return h;
  }

  /** A Lambda context for one invocation of `fn`: its remaining time runs out at the topology's
   * timeout, or at once when `signal` aborts. */
  context(fn: FunctionName, signal?: AbortSignal): Context {
    const spec = topology.functions[fn];
    return localLambdaContext({
      functionName: `${this.opts.prefix}${fn}`,
      memoryMB: spec.memoryMb,
      timeoutSeconds: spec.timeoutSeconds,
      region: REGION,
      ...(signal ? { signal } : {}),
    });
  }

  /** The local Sources table as the catalog `storytrail sources push` writes. */
  sourceCatalog(): SourceCatalogTable {
    return new SourceCatalogTable(this.clients.doc, this.resources.tables.sources);
  }

  /** Frees the hosts an earlier process left taken (a run stopped mid-request): nothing of it is out now.
   * Only for a run that owns its tables (a data directory's crawl); returns how many. */
  freeAbandonedHosts(now = Date.now()): Promise<number> {
    return freeAbandonedHostLeases(this.clients.doc, this.resources.tables.hosts, now);
  }

  /** Makes the Sources table's configured set exactly `sources` (a push); returns what changed. */
  async pushSources(sources: unknown, now = new Date()): Promise<SourcesDiff> {
    const catalog = this.sourceCatalog();
    const diff = diffSources(await catalog.list(), parseSources(sources));
    await applySourcesDiff(catalog, diff, now);
    return diff;
  }

  /**
   * What the dispatcher's schedule does (invoke it with its tick), then the discover queue worked off,
   * as its Lambda trigger would: the sources due at `scheduled_time` (all with `all`) are discovered.
   * Fetch and dedup are left for drain(). An abort `signal` ends discovery early, as its timeout would
   * (sources not finished resume next run; messages not received stay queued).
   */
  async discoverDue(event: DispatchEvent, opts: { signal?: AbortSignal } = {}): Promise<LocalDiscoveryRun> {
    const runs: DiscoverRunSummary[] = [];
    this.discoverRuns = runs;
    try {
      const dispatch = (await this.invoke("dispatch", {
        default_schedule: DEFAULT_SOURCE_SCHEDULE,
        ...event,
      })) as DispatchSummary;
      await this.drain({ only: ["discover"], ...(opts.signal ? { signal: opts.signal } : {}) });
      const sources = runs.flatMap((r) => r.sources).sort((a, b) => a.source_id.localeCompare(b.source_id));
      const enqueued = runs.reduce((n, r) => n + r.enqueued, 0);
      return { run_id: dispatch.run_id, sources, enqueued, dispatch };
    } finally {
      this.discoverRuns = undefined;
    }
  }

  /**
   * A discovery run of exactly these sources, now: the Sources table is made to hold them (added,
   * changed, removed, as `storytrail sources push` would), then every one is dispatched and discovered.
   * The summary lists the sources in the given order.
   */
  async discover(
    event: { readonly sources: unknown; readonly run_id?: string },
    opts: { signal?: AbortSignal } = {},
  ): Promise<LocalDiscoveryRun> {
    const order = parseSources(event.sources).map((s) => s.id);
    await this.pushSources(event.sources);
    const run = await this.discoverDue(
      { all: true, ...(event.run_id ? { run_id: event.run_id } : {}) },
      opts,
    );
    const byId = new Map(run.sources.map((s) => [s.source_id, s]));
    return { ...run, sources: order.flatMap((id) => byId.get(id) ?? []) };
  }

  invoke(fn: FunctionName, event: unknown, opts: { signal?: AbortSignal } = {}): Promise<unknown> {
    return this.handler(fn)(event, this.context(fn, opts.signal));
  }

  /** Messages in a queue, visible, in flight or delayed to their slot (page-slots.ts). */
  private async depth(queueUrl: string): Promise<number> {
    const out = await this.clients.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: [
          "ApproximateNumberOfMessages",
          "ApproximateNumberOfMessagesNotVisible",
          "ApproximateNumberOfMessagesDelayed",
        ],
      }),
    );
    const a = out.Attributes ?? {};
    return (
      Number(a.ApproximateNumberOfMessages ?? 0) +
      Number(a.ApproximateNumberOfMessagesNotVisible ?? 0) +
      Number(a.ApproximateNumberOfMessagesDelayed ?? 0)
    );
  }

  private queueDepth(q: QueueName): Promise<number> {
    return this.depth(this.resources.queueUrls[q]);
  }

  deadLettered(q: QueueName): Promise<number> {
    return this.depth(this.resources.deadLetterQueueUrls[q]);
  }

  /**
   * Processes every queue until all are empty (messages either handled or dead-lettered).
   * Bounded: gives up after `maxMs` with an error that names the queues still holding messages.
   * An abort `signal` stops it: no new batch is received, batches in flight get STOP_GRACE_MS to
   * finish (deleted or released as usual), the rest are released unfinished; what is left stays in
   * the queues.
   */
  async drain(
    opts: {
      onBatch?: (p: DrainProgress) => void;
      maxMs?: number;
      signal?: AbortSignal;
      /** Work only these queues (default: all). */
      only?: readonly QueueName[];
    } = {},
  ): Promise<DrainStats> {
    const queues = opts.only ?? queueNames;
    const stats: DrainStats = { batches: {}, messages: {}, failedDeliveries: {}, putBack: {} };
    const deadline = Date.now() + (opts.maxMs ?? 30 * 60_000);
    for (;;) {
      await Promise.all(
        queues.flatMap((q) => {
          const fn = consumerOf(q);
          const spec = topology.functions[fn];
          if (spec.trigger.kind !== "queue") return [];
          const batchSize = spec.trigger.batchSize;
          const workers = this.opts.concurrency?.[q] ?? 2;
          const handler = this.handler(fn);
          return Array.from({ length: workers }, async () => {
            while (!opts.signal?.aborted) {
              const r = await pumpOnce(
                this.clients.sqs,
                (e: SQSEvent) => handler(e, this.context(fn, opts.signal)) as ReturnType<SqsHandler>,
                {
                  queueUrl: this.resources.queueUrls[q],
                  queueArn: this.resources.queueArns[q],
                  batchSize,
                  region: REGION,
                  visibilitySeconds: this.opts.visibilitySeconds ?? 120,
                  retryDelaySeconds: this.opts.retryDelaySeconds ?? 0,
                  ...(opts.signal ? { signal: opts.signal } : {}),
                },
              );
              if (!r) return;
              stats.batches[fn] = (stats.batches[fn] ?? 0) + 1;
              stats.messages[fn] = (stats.messages[fn] ?? 0) + r.received;
              stats.failedDeliveries[fn] = (stats.failedDeliveries[fn] ?? 0) + r.failed;
              stats.putBack[fn] = (stats.putBack[fn] ?? 0) + (r.putBack ?? 0);
              opts.onBatch?.({ fn, received: r.received, failed: r.failed });
            }
          });
        }),
      );
      if (opts.signal?.aborted) return stats;
      const depths = await Promise.all(queues.map(async (q) => [q, await this.queueDepth(q)] as const));
      if (depths.every(([, d]) => d === 0)) return stats;
      if (Date.now() > deadline) {
        throw new Error(
          `drain timed out with messages left: ${depths.map(([q, d]) => `${q}=${d}`).join(", ")}`,
        );
      }
      // Messages put back until a slot (or in flight elsewhere) are not visible yet: wait a little.
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Attaches a consumer to the Clusters table's stream, as a Lambda stream trigger would. */
  async subscribeClusters(
    consumer: StreamConsumer,
    from: "TRIM_HORIZON" | "LATEST" = "TRIM_HORIZON",
  ): Promise<StreamSubscription> {
    const desc = await this.clients.dynamo.send(
      new DescribeTableCommand({ TableName: this.resources.tables.clusters }),
    );
    const arn = desc.Table?.LatestStreamArn;
    if (!arn) throw new Error("the clusters table has no stream");
    const ttlDeletions = this.ttlLog().lookup(this.resources.tables.clusters, topology.tables.clusters);
    return subscribeStream(this.clients.streams, arn, consumer, { from, region: REGION, ttlDeletions });
  }

  /** Deletes what DynamoDB's TTL would have by `now`, the run's clock (ttl-sweeper.ts); per table. */
  sweepExpired(now: Date): Promise<SweepCounts> {
    return sweepExpired(this.clients, this.resources.tables, this.ttlLog(), now);
  }

  private ttlLog(): TtlDeletionLog {
    return new TtlDeletionLog(this.clients, ttlDeletionsTable(this.opts.prefix));
  }

  private async *scan(
    table: string,
    filter?: { expr: string; values: Record<string, unknown>; names?: Record<string, string> },
  ) {
    const pages = paginateScan(
      { client: this.clients.doc },
      {
        TableName: table,
        ...(filter
          ? {
              FilterExpression: filter.expr,
              ExpressionAttributeValues: filter.values,
              ...(filter.names ? { ExpressionAttributeNames: filter.names } : {}),
            }
          : {}),
      },
    );
    for await (const page of pages) yield* page.Items ?? [];
  }

  /** Every item of a table (for summaries and tests; a local run's tables are small). */
  async items(table: keyof LocalResources["tables"]): Promise<Record<string, unknown>[]> {
    const all: Record<string, unknown>[] = [];
    for await (const item of this.scan(this.resources.tables[table])) all.push(item);
    return all;
  }

  /** What became of every URL a run claimed; the parts add up to `claimed`. */
  async runCounts(runId: string): Promise<RunCounts> {
    let claimed = 0;
    let articles = 0;
    let failed = 0;
    let pending = 0;
    const failure_reasons: Record<string, number> = {};
    const articleIds = new Set<string>();
    for await (const item of this.scan(this.resources.tables.frontier, {
      expr: "run_id = :r",
      values: { ":r": runId },
    })) {
      claimed++;
      if (item.status === "fetched") {
        articles++;
        articleIds.add(String(item.article_id));
      } else if (item.status === "failed") {
        failed++;
        const reason = String(item.reason);
        failure_reasons[reason] = (failure_reasons[reason] ?? 0) + 1;
      } else pending++;
    }
    const dead_lettered = {
      discover: await this.deadLettered("discover"),
      fetch: await this.deadLettered("fetch"),
      dedup: await this.deadLettered("dedup"),
    };
    let clusters = 0;
    let clustered_articles = 0;
    for await (const item of this.scan(this.resources.tables.clusters, {
      expr: "#i = :s",
      values: { ":s": "summary" },
      names: { "#i": "item" },
    })) {
      if (item.merged_into) continue;
      clusters++;
      clustered_articles += Number(item.article_count ?? 0);
    }
    return {
      run_id: runId,
      claimed,
      articles,
      distinct_articles: articleIds.size,
      failed,
      pending,
      failure_reasons,
      dead_lettered,
      clusters,
      clustered_articles,
    };
  }

  async close(): Promise<void> {
    destroyClients(this.clients);
  }
}
