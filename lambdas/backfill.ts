/**
 * backfill λ (one Distributed Map item = one WARC file in S3): streams the file in ranged reads through
 * the same post-GET path as fetch (extract → raw sample → Articles → dedup queue). Stops at a checkpoint
 * when its time runs short and returns it; the state machine invokes it again from there.
 */
import type { Context } from "aws-lambda";
import { ArticlesTable } from "../shared/aws/articles-table";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { functionLogger } from "../shared/aws/function-logger";
import { DedupQueueSender } from "../shared/aws/queue-sender";
import { RawSamplesBucket } from "../shared/aws/raw-samples";
import { loadS3Client } from "../shared/aws/s3-client";
import { s3ObjectBytes } from "../shared/aws/s3-object-bytes";
import { makeSqsClient } from "../shared/aws/sqs-client";
import { type BackfillResult, backfillItemSchema, resultOf } from "../shared/backfill/backfill-item";
import { importWarc } from "../shared/backfill/import-warc";
import { SourceLookup } from "../shared/backfill/page-source";
import { crawlSettings } from "../shared/config/crawl-settings";
import { DEFAULT_FETCH_LIMITS } from "../shared/fetch/http";

/**
 * Stop reading new records when less time than this is left: one record at the 5 MB cap extracts in
 * well under 10 s, so a minute leaves room for it and the return.
 */
export const STOP_MARGIN_MS = 60_000;

export function createBackfillHandler(env: Env) {
  const logger = functionLogger("storytrail-backfill");
  const settings = crawlSettings(env);
  const { endpoints, region } = awsTarget(env);
  const { doc } = makeDynamoClients(endpoints, region);
  let s3: ReturnType<typeof loadS3Client> | undefined;
  const s3Client = () => {
    s3 ??= loadS3Client(endpoints, region);
    return s3;
  };
  // The WARC bucket may be in another region than the stack (commoncrawl is in us-east-1).
  let source: ReturnType<typeof loadS3Client> | undefined;
  const sourceClient = () => {
    source ??= loadS3Client(endpoints, region, { followRegionRedirects: true });
    return source;
  };
  const page = {
    articles: new ArticlesTable(doc, resource.table(env, "articles")),
    rawSamples: new RawSamplesBucket(s3Client, resource.bucket(env, "raw")),
    dedupQueue: new DedupQueueSender(makeSqsClient(endpoints, region), resource.queueUrl(env, "dedup")),
    sampleRate: settings.STORYTRAIL_RAW_SAMPLE_RATE,
    partners: settings.STORYTRAIL_CANONICAL_PARTNERS,
  };
  // Pages are named by their registrable domain (no sources file in the deployment's backfill).
  const sources = new SourceLookup([]);

  return async (event: unknown, context: Context): Promise<BackfillResult> => {
    logger.addContext(context);
    const parsed = backfillItemSchema.safeParse(event);
    // Not retryable: the Map records the item as failed (counted against its tolerated failures).
    if (!parsed.success) throw new Error(`malformed backfill item: ${parsed.error.message}`);
    const item = parsed.data;
    const file = `s3://${item.bucket}/${item.key}`;
    let progressed = false;
    const checkpoint = await importWarc(
      file,
      s3ObjectBytes(await sourceClient(), item),
      item.checkpoint ?? null,
      {
        page,
        sources,
        maxBytes: DEFAULT_FETCH_LIMITS.maxBytes,
        onEntry: () => {
          progressed = true;
        },
        // Only after one record at least: every invocation moves the file on, so the loop ends.
        shouldStop: () => progressed && context.getRemainingTimeInMillis() < STOP_MARGIN_MS,
      },
    );
    const { summary } = checkpoint;
    for (const p of summary.problems.slice(item.checkpoint?.summary.problems.length ?? 0))
      logger.warn("unreadable record", { ...p });
    logger.info(checkpoint.done ? "file imported" : "file part imported", {
      file,
      records: summary.records,
      articles: summary.articles,
      skipped: summary.skipped,
      errors: summary.errors,
      next_offset: checkpoint.done ? null : checkpoint.offset,
    });
    return resultOf(item, checkpoint);
  };
}

let cached: ReturnType<typeof createBackfillHandler> | undefined;
export const handler = (event: unknown, context: Context) => {
  cached ??= createBackfillHandler(process.env);
  return cached(event, context);
};
