/**
 * An example consumer of the Clusters stream: Powertools' batch processor decodes each record into a
 * typed event with the records package's schema, and reports the records it could not handle, so
 * Lambda retries from the first of them (ClusterStreamConsumer turns partial responses on).
 *
 * In your own project, import from "@storytrail/records" (the package built from packages/records);
 * this example imports the package's source so that it builds from a fresh clone.
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { parser } from "@aws-lambda-powertools/batch/parser";
import { Logger } from "@aws-lambda-powertools/logger";
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from "aws-lambda";
import { type ClusterStreamEvent, clusterStreamRecordSchema } from "../../packages/records/src/records";

const logger = new Logger({ serviceName: "cluster-consumer-example" });
const processor = new BatchProcessor(EventType.DynamoDBStreams, {
  parser,
  schema: clusterStreamRecordSchema,
});

async function onEvent(event: ClusterStreamEvent): Promise<void> {
  switch (event.type) {
    case "story_created":
      logger.info("new story", { cluster_id: event.cluster_id, headline: event.story.headline });
      return;
    case "story_grew":
      logger.info("story grew", { cluster_id: event.cluster_id, outlets: event.story.outlet_count });
      return;
    case "story_merged":
      // Whatever you keyed by event.cluster_id now belongs to event.into (which may merge on later).
      logger.info("story merged", { cluster_id: event.cluster_id, into: event.into });
      return;
    case "member_expired":
    case "outlet_expired":
      // DynamoDB's TTL took an archived item out of the hot table: the story still counts it.
      return;
    default:
      return; // members, outlets, unknown kinds: not needed here
  }
}

export const handler = (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> =>
  processPartialResponse(event, onEvent, processor, { context });
