/**
 * The Sources table as the catalog of configured sources (DynamoDB adapter of `SourceCatalog`). A
 * source's config is one map attribute, `config`, on the item discovery (last success) and the quality
 * λ (history, findings) also write: a push updates only `config`, never the whole item.
 */
import { type DynamoDBDocumentClient, paginateScan, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { SourceCatalog } from "../discover/source-catalog";
import type { Source } from "../discover/sources";
import { batchWrite } from "./batch-write";

/** Updates in flight at once: UpdateItem has no batch form; 16 keeps a 100,000-source push to minutes. */
const WRITE_CONCURRENCY = 16;

export class SourceCatalogTable implements SourceCatalog {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(): Promise<Source[]> {
    const pages = paginateScan(
      { client: this.doc },
      {
        TableName: this.tableName,
        ProjectionExpression: "#c",
        FilterExpression: "attribute_exists(#c)",
        ExpressionAttributeNames: { "#c": "config" },
      },
    );
    const out: Source[] = [];
    for await (const page of pages) for (const item of page.Items ?? []) out.push(item.config as Source);
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async put(sources: readonly Source[], at: Date): Promise<void> {
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < sources.length; i = next++) {
        const source = sources[i]!;
        await this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { source_id: source.id },
            UpdateExpression: "SET #c = :c, config_updated_at = :at",
            ExpressionAttributeNames: { "#c": "config" },
            ExpressionAttributeValues: { ":c": source, ":at": at.toISOString() },
          }),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, sources.length) }, worker));
  }

  async remove(ids: readonly string[]): Promise<void> {
    await batchWrite(
      this.doc,
      this.tableName,
      ids.map((id) => ({ DeleteRequest: { Key: { source_id: id } } })),
    );
  }
}
