/** Every article of the Fingerprints table, as the clusterer's articles (for re-filing LSH buckets). */
import { type DynamoDBDocumentClient, paginateScan } from "@aws-sdk/lib-dynamodb";
import type { IndexedArticle } from "../dedup/dedup-store";
import { indexedFromItem } from "./fingerprint-item";

export async function* scanFingerprints(
  doc: DynamoDBDocumentClient,
  tableName: string,
): AsyncGenerator<IndexedArticle> {
  for await (const page of paginateScan({ client: doc }, { TableName: tableName })) {
    for (const item of page.Items ?? []) {
      const article = indexedFromItem(item);
      if (article) yield article;
    }
  }
}
