/**
 * archive λ: archives yesterday's collected day into the stack's bucket as Parquet and re-checks the
 * day before (its manifest's rows against the table's count: a late article makes it run again), then
 * starts the hot window on what each archived day holds (shared/archive/). The daily schedule starts a
 * state machine (infra/archive-steps.ts) that invokes it once per step (`{ step: … }`: a day in shards);
 * an event without a step runs whole days in this invocation (a small day, by hand).
 */
import { randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";
import { archiveDays, type DayOutcome } from "../shared/archive/archive-run";
import { ARCHIVE_RUN_SECONDS, type ArchiveStepEvent, runArchiveStep } from "../shared/archive/archive-steps";
import { archiveWindows } from "../shared/archive/archive-windows";
import { dayBefore } from "../shared/archive/layout";
import { archiveCodec } from "../shared/archive/parquet-codec";
import { DynamoArchiveSource } from "../shared/aws/archive-tables";
import { DayLeaseItem } from "../shared/aws/day-lease-item";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { functionLogger } from "../shared/aws/function-logger";
import { loadS3Client } from "../shared/aws/s3-client";
import { S3ObjectStore } from "../shared/aws/s3-object-store";
import { clockFrom } from "../shared/config/clock";
import { crawlSettings } from "../shared/config/crawl-settings";

export interface ArchiveEvent {
  /** Days to archive (`YYYY-MM-DD`); default yesterday and the day before, by the function's clock. */
  readonly days?: readonly string[];
  /** One step of the state machine (shared/archive/archive-steps.ts), with what it carries. */
  readonly step?: string;
}

/** Whole days answer with their outcomes; a step with what the next step takes. */
export interface ArchiveHandler {
  (event?: { readonly days?: readonly string[] }, context?: Context): Promise<DayOutcome[]>;
  (event: ArchiveStepEvent, context?: Context): Promise<unknown>;
}

/** Without a Lambda context (a local call): the lease a run holds, the function's timeout at most. */
const LOCAL_LEASE_MS = 15 * 60_000;

export function createArchiveHandler(env: Env): ArchiveHandler {
  const { endpoints, region } = awsTarget(env);
  const { doc } = makeDynamoClients(endpoints, region);
  const settings = crawlSettings(env);
  const clock = clockFrom(settings.STORYTRAIL_NOW);
  const logger = functionLogger("storytrail-archive");
  const source = new DynamoArchiveSource(doc, {
    articles: resource.table(env, "articles"),
    fingerprints: resource.table(env, "fingerprints"),
    clusters: resource.table(env, "clusters"),
  });
  const lease = new DayLeaseItem(doc, resource.table(env, "hosts"));
  const bucket = resource.bucket(env, "raw");
  const s3 = loadS3Client(endpoints, region);

  const handle = async (event: ArchiveEvent = {}, context?: Context): Promise<unknown> => {
    if (context) logger.addContext(context);
    const now = clock();
    const days = event.days ?? [dayBefore(now, 1), dayBefore(now, 2)];
    const runId = () => `${now.toISOString().replace(/[-:.]/g, "")}-${randomUUID().slice(0, 8)}`;
    const deps = {
      source,
      store: new S3ObjectStore(await s3, bucket),
      lease,
      codec: archiveCodec(),
      ...archiveWindows(settings),
      // A step's lease lasts the state machine's run; a whole day here cannot outlive this invocation.
      leaseMs:
        event.step !== undefined
          ? ARCHIVE_RUN_SECONDS * 1000
          : (context?.getRemainingTimeInMillis() ?? LOCAL_LEASE_MS),
    };
    if (event.step !== undefined) {
      const out = await runArchiveStep(deps, event, {
        now,
        defaultDays: days,
        newRunId: runId,
        ...(context ? { timeLeftMs: () => context.getRemainingTimeInMillis() } : {}),
      });
      logger.info("archive step", { event: { ...event }, out: out as Record<string, unknown> });
      return out;
    }
    const outcomes = await archiveDays(deps, days, { runId: runId(), now });
    for (const o of outcomes) logger.info("archive day", { ...o });
    return outcomes;
  };
  return handle as ArchiveHandler;
}

let cached: ArchiveHandler | undefined;
export const handler = (event?: ArchiveEvent, context?: Context): Promise<unknown> => {
  cached ??= createArchiveHandler(process.env);
  return cached(event as ArchiveStepEvent, context);
};
