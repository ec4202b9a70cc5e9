/** The Articles table (DynamoDB adapter of `ArticleStore`). */
import { type DynamoDBDocumentClient, GetCommand, paginateScan, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { ArticleStore } from "../crawl/ports";
import type { QualitySample } from "../quality/publisher-stats";
import { type Article, articleSchema } from "../records";
import { setExpression } from "./update-expression";

export class ArticlesTable implements ArticleStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(article: Omit<Article, "cluster_id">): Promise<void> {
    const { article_id, url_variants, ...fields } = article;
    // url_variants is a string set so that copies of one article reached by different URLs accumulate.
    const expr = setExpression(fields, { add: { url_variants: new Set(url_variants) } });
    await this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: { article_id }, ...expr }));
  }

  async get(articleId: string): Promise<Article | null> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { article_id: articleId }, ConsistentRead: true }),
    );
    if (!out.Item) return null;
    return articleFromItem(out.Item);
  }
}

/**
 * Quality samples of the articles collected since `since`. A daily filtered Scan: it reads the whole
 * table (cost grows with the table, see README "Cost"), which keeps the fetch path free of extra writes.
 */
export async function* scanQualitySamples(
  doc: DynamoDBDocumentClient,
  tableName: string,
  since: Date,
): AsyncGenerator<QualitySample> {
  const pages = paginateScan(
    { client: doc },
    {
      TableName: tableName,
      ProjectionExpression: "source_id, word_count, published_at",
      FilterExpression: "collected_at >= :s",
      ExpressionAttributeValues: { ":s": since.toISOString() },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      yield {
        source_id: String(item.source_id),
        word_count: Number(item.word_count ?? 0),
        published_at: (item.published_at as string | null) ?? null,
      };
    }
  }
}

export function articleFromItem(item: Record<string, unknown>): Article {
  const variants = item.url_variants;
  return articleSchema.parse({
    cluster_id: null,
    ...item,
    url_variants: variants instanceof Set ? [...variants].sort() : (variants ?? []),
  });
}
