/** The Sources table: per-source discovery state (DynamoDB adapter of `SourceState`). */
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { SourceState } from "../crawl/ports";

export class SourcesTable implements SourceState {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async lastSuccess(sourceId: string): Promise<Date | null> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { source_id: sourceId } }),
    );
    const at = out.Item?.last_success_at;
    return typeof at === "string" ? new Date(at) : null;
  }

  async recordSuccess(sourceId: string, at: Date, counts: Record<string, number>): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { source_id: sourceId, last_success_at: at.toISOString(), last_counts: counts },
      }),
    );
  }
}
