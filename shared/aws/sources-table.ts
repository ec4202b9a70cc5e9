/** The Sources table: per-source discovery state (DynamoDB adapter of `SourceState`). */
import { type DynamoDBDocumentClient, GetCommand, paginateScan, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { SourceState } from "../crawl/ports";
import type { DailyQuality } from "../quality/publisher-stats";
import type { QualityFinding } from "../quality/quality-run";

/** Findings a source keeps (newest last): two weeks of a drop on every metric, and the item stays small. */
const KEPT_FINDINGS = 20;

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
      new UpdateCommand({
        TableName: this.tableName,
        Key: { source_id: sourceId },
        UpdateExpression: "SET last_success_at = :at, last_counts = :c",
        ExpressionAttributeValues: { ":at": at.toISOString(), ":c": counts },
      }),
    );
  }

  /** The source's recent daily quality figures (bounded by the quality λ). */
  async qualityHistory(sourceId: string): Promise<DailyQuality[]> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { source_id: sourceId } }),
    );
    return (out.Item?.quality_history as DailyQuality[] | undefined) ?? [];
  }

  async saveQualityHistory(sourceId: string, history: readonly DailyQuality[]): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { source_id: sourceId },
        UpdateExpression: "SET quality_history = :h",
        ExpressionAttributeValues: { ":h": history },
      }),
    );
  }

  /** The source's recent quality findings, newest last. */
  async qualityFindings(sourceId: string): Promise<QualityFinding[]> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { source_id: sourceId } }),
    );
    return (out.Item?.quality_findings as QualityFinding[] | undefined) ?? [];
  }

  /** Adds findings (replacing a re-run's for the same day and metric), bounded to KEPT_FINDINGS. */
  async appendQualityFindings(sourceId: string, findings: readonly QualityFinding[]): Promise<void> {
    const fresh = new Set(findings.map((f) => `${f.day}|${f.metric}`));
    const kept = (await this.qualityFindings(sourceId)).filter((f) => !fresh.has(`${f.day}|${f.metric}`));
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { source_id: sourceId },
        UpdateExpression: "SET quality_findings = :f",
        ExpressionAttributeValues: { ":f": [...kept, ...findings].slice(-KEPT_FINDINGS) },
      }),
    );
  }

  /** Every source's quality history and findings, for the quality table. */
  async *qualityOfAll(): AsyncGenerator<{
    source_id: string;
    history: DailyQuality[];
    findings: QualityFinding[];
  }> {
    const pages = paginateScan(
      { client: this.doc },
      { TableName: this.tableName, ProjectionExpression: "source_id, quality_history, quality_findings" },
    );
    for await (const page of pages)
      for (const item of page.Items ?? [])
        yield {
          source_id: String(item.source_id),
          history: (item.quality_history as DailyQuality[] | undefined) ?? [],
          findings: (item.quality_findings as QualityFinding[] | undefined) ?? [],
        };
  }

  /** Every source id with state (sources that stopped yielding articles must be judged too). */
  async *sourceIds(): AsyncGenerator<string> {
    const pages = paginateScan(
      { client: this.doc },
      { TableName: this.tableName, ProjectionExpression: "source_id" },
    );
    for await (const page of pages) for (const item of page.Items ?? []) yield String(item.source_id);
  }
}
