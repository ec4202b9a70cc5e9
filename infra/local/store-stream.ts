/**
 * An import's embedded store (shared/local-store/) keeps no stream: its Clusters items are read as the
 * INSERT records a stream replayed from the start would carry, in DynamoDB JSON, so `storytrail tail`
 * decodes them with the consumer's own decoder and `--raw` prints what a Lambda would receive. The
 * stories' summaries come first, then their members and outlets (LocalStore.clusterItems' order), so a
 * consumer's view sees each story before its parts.
 */
import { marshall } from "@aws-sdk/util-dynamodb";
import type { ClusterStreamRecord } from "../../shared/consumer/decode-stream-record";

/** The store's items as stream records, numbered in order (SequenceNumber, eventID). */
export async function* insertRecords(
  items: AsyncIterable<Record<string, unknown>>,
): AsyncGenerator<ClusterStreamRecord> {
  let n = 0;
  for await (const item of items) {
    n++;
    const image = marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false });
    yield {
      eventID: `store-${n}`,
      eventName: "INSERT",
      dynamodb: {
        Keys: { cluster_id: image.cluster_id, item: image.item },
        NewImage: image,
        SequenceNumber: String(n).padStart(21, "0"),
      },
    };
  }
}
