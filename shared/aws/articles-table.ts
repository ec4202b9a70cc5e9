/** The Articles table (DynamoDB adapter of `ArticleStore`). */
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { ArticleStore } from "../crawl/ports";
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
    // collected_day keys the by-day index the quality λ reads.
    const expr = setExpression(
      { ...fields, collected_day: fields.collected_at.slice(0, 10) },
      { add: { url_variants: new Set(url_variants) } },
    );
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

export function articleFromItem(item: Record<string, unknown>): Article {
  const variants = item.url_variants;
  return articleSchema.parse({
    cluster_id: null,
    ...item,
    url_variants: variants instanceof Set ? [...variants].sort() : (variants ?? []),
  });
}
