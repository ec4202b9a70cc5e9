/** dedup λ (SQS): article fingerprint → LSH candidates → confirmed copies → story cluster records. */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { Logger } from "@aws-lambda-powertools/logger";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { DynamoDedupStore } from "../shared/aws/dedup-tables";
import { clientsFromEnv, type Env, resource } from "../shared/aws/function-env";
import { addArticle, DedupConflictError } from "../shared/dedup/clusterer";
import { fingerprintSchema } from "../shared/dedup/fingerprint";
import { dedupMessageSchema } from "../shared/records";

const logger = new Logger({ serviceName: "storytrail-dedup" });

/** Lost races are retried here first (addArticle is idempotent); past this, SQS redelivers. */
const CONFLICT_RETRIES = 8;

export function createDedupHandler(env: Env) {
  const clients = clientsFromEnv(env);
  const store = new DynamoDedupStore(clients.doc, {
    articles: resource.table(env, "articles"),
    buckets: resource.table(env, "buckets"),
    clusters: resource.table(env, "clusters"),
  });

  const recordHandler = async (record: SQSRecord) => {
    const msg = dedupMessageSchema.parse(JSON.parse(record.body));
    const fingerprint = fingerprintSchema.parse(msg.fingerprint);
    const article = { ...msg, fingerprint };
    for (let attempt = 1; ; attempt++) {
      try {
        const out = await addArticle(store, article);
        logger.info("clustered", { article_id: msg.article_id, ...out });
        return;
      } catch (err) {
        if (!(err instanceof DedupConflictError) || attempt >= CONFLICT_RETRIES) throw err;
        await new Promise((r) => setTimeout(r, Math.random() * 25 * 2 ** attempt));
      }
    }
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
