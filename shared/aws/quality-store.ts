/** The quality use case's store on DynamoDB: the Articles by-day index, Articles items and Sources items. */
import { type DynamoDBDocumentClient, paginateQuery } from "@aws-sdk/lib-dynamodb";
import { ARTICLES_BY_DAY_INDEX } from "../config/resource-names";
import type { DailyQuality, QualitySample } from "../quality/publisher-stats";
import type { QualityFinding, QualityStore } from "../quality/quality-run";
import { batchGet } from "./batch-get";
import { SourcesTable } from "./sources-table";

export class DynamoQualityStore implements QualityStore {
  private readonly sources: SourcesTable;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: { readonly articles: string; readonly sources: string },
  ) {
    this.sources = new SourcesTable(doc, tables.sources);
  }

  /**
   * A Query of the by-day index per UTC day in the window, so the daily read costs one day of ~150-byte
   * index items, whatever the table's size.
   */
  async *samples(since: Date, until: Date): AsyncGenerator<QualitySample> {
    const from = since.toISOString();
    const to = until.toISOString();
    for (let day = Date.parse(from.slice(0, 10)); day < until.getTime(); day += 86_400_000) {
      const pages = paginateQuery(
        { client: this.doc },
        {
          TableName: this.tables.articles,
          IndexName: ARTICLES_BY_DAY_INDEX,
          KeyConditionExpression: "collected_day = :d AND collected_at BETWEEN :from AND :to",
          ExpressionAttributeValues: {
            ":d": new Date(day).toISOString().slice(0, 10),
            ":from": from,
            ":to": to,
          },
        },
      );
      for await (const page of pages) {
        for (const item of page.Items ?? []) {
          // BETWEEN is inclusive; the window is not.
          if (String(item.collected_at) === to) continue;
          yield {
            article_id: String(item.article_id),
            source_id: String(item.source_id),
            word_count: Number(item.word_count ?? 0),
            published_at: (item.published_at as string | null) ?? null,
          };
        }
      }
    }
  }

  sourceIds(): AsyncIterable<string> {
    return this.sources.sourceIds();
  }

  history(sourceId: string): Promise<DailyQuality[]> {
    return this.sources.qualityHistory(sourceId);
  }

  saveHistory(sourceId: string, history: readonly DailyQuality[]): Promise<void> {
    return this.sources.saveQualityHistory(sourceId, history);
  }

  async evidence(articleIds: readonly string[]): Promise<{ url: string; raw_key: string | null }[]> {
    const found = new Map<string, { url: string; raw_key: string | null }>();
    const items = await batchGet(
      this.doc,
      this.tables.articles,
      articleIds.map((article_id) => ({ article_id })),
      { attributes: ["article_id", "url", "raw_key"] },
    );
    for (const item of items) {
      // An item without its URL (written by hand, not by fetch) is no evidence: not "undefined".
      if (typeof item.url !== "string") continue;
      found.set(String(item.article_id), {
        url: item.url,
        raw_key: typeof item.raw_key === "string" ? item.raw_key : null,
      });
    }
    // In the order asked for: the strongest witnesses first.
    return articleIds.flatMap((id) => found.get(id) ?? []);
  }

  saveFindings(sourceId: string, findings: readonly QualityFinding[]): Promise<void> {
    return this.sources.appendQualityFindings(sourceId, findings);
  }
}
