/** dedup λ (SQS): article fingerprint → LSH candidates → confirmed copies → story cluster records. */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { Logger } from "@aws-lambda-powertools/logger";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { DynamoDedupStore } from "../shared/aws/dedup-tables";
import { makeDynamoClients } from "../shared/aws/dynamo-clients";
import { awsTarget, type Env, resource } from "../shared/aws/function-env";
import { crawlSettings } from "../shared/config/crawl-settings";
import { fingerprintSchema } from "../shared/dedup/fingerprint";
import { addArticleRetrying } from "../shared/dedup/retry-on-conflict";
import { dedupMessageSchema } from "../shared/records";

const logger = new Logger({ serviceName: "storytrail-dedup" });

/** Lost races are retried here first (addArticle is idempotent); past this, SQS redelivers. */
const CONFLICT_RETRIES = 8;

export function createDedupHandler(env: Env) {
  const { endpoints, region } = awsTarget(env);
  const { doc } = makeDynamoClients(endpoints, region);
  const store = new DynamoDedupStore(
    doc,
    {
      fingerprints: resource.table(env, "fingerprints"),
      buckets: resource.table(env, "buckets"),
      clusters: resource.table(env, "clusters"),
    },
    { bucketRetentionDays: crawlSettings(env).STORYTRAIL_LSH_RETENTION_DAYS },
  );

  const recordHandler = async (record: SQSRecord) => {
    const msg = dedupMessageSchema.parse(JSON.parse(record.body));
    const fingerprint = fingerprintSchema.parse(msg.fingerprint);
    const article = { ...msg, fingerprint };
    const out = await addArticleRetrying(store, article, { attempts: CONFLICT_RETRIES });
    logger.info("clustered", { article_id: msg.article_id, ...out });
  };

  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, recordHandler, new BatchProcessor(EventType.SQS), {
      context,
      throwOnFullBatchFailure: false,
    });
}

let cached: ReturnType<typeof createDedupHandler> | undefined;
export const handler = (event: SQSEvent, context?: Context) => {
  cached ??= createDedupHandler(process.env);
  return cached(event, context);
};
