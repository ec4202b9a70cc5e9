/** The Articles table (DynamoDB adapter of `ArticleStore`). */
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { articleItemFields, decodeArticleItem, MAX_URL_VARIANTS } from "../consumer/article-item";
import type { ArticleStore } from "../crawl/ports";
import type { Article } from "../records";
import { setExpression, type UpdateParts } from "./update-expression";

export { MAX_URL_VARIANTS };

/** DynamoDB's refusal of an item over 400 KB ("Item size has exceeded the maximum allowed size", and
 * "Item size to update has exceeded …" for an update). */
function isTooLarge(err: unknown): boolean {
  const e = err as { name?: string; message?: string };
  return e.name === "ValidationException" && /item size/i.test(e.message ?? "");
}

/** A re-fetch that needed no cut leaves no `truncated` from an earlier one: the item is the article. */
function clearTruncated(fields: { truncated?: unknown }, expr: UpdateParts): UpdateParts {
  if (fields.truncated !== undefined) return expr;
  return {
    ...expr,
    UpdateExpression: `${expr.UpdateExpression} REMOVE #truncated`,
    ExpressionAttributeNames: { ...expr.ExpressionAttributeNames, "#truncated": "truncated" },
  };
}

export class ArticlesTable implements ArticleStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(article: Article, bodyGzip?: Uint8Array): Promise<"stored" | "too_large"> {
    const { article_id, url_variants, ...fields } = articleItemFields(article, bodyGzip);
    // collected_day keys the by-day index the quality λ reads.
    const set = { ...fields, collected_day: fields.collected_at.slice(0, 10) };
    // url_variants is a string set so that copies of one article reached by different URLs accumulate,
    // up to MAX_URL_VARIANTS: pages that all name one canonical URL (a site's home page) would
    // otherwise grow the item past the size limit. When full, the article is written without new ones.
    const withVariants = clearTruncated(
      set,
      setExpression(set, { add: { url_variants: new Set(url_variants) } }),
    );
    try {
      await this.update(article_id, {
        ...withVariants,
        ConditionExpression: "attribute_not_exists(#uv) OR size(#uv) < :maxVariants",
        ExpressionAttributeNames: { ...withVariants.ExpressionAttributeNames, "#uv": "url_variants" },
        ExpressionAttributeValues: {
          ...withVariants.ExpressionAttributeValues,
          ":maxVariants": MAX_URL_VARIANTS,
        },
      });
      return "stored";
    } catch (err) {
      if (isTooLarge(err)) return "too_large";
      if ((err as { name?: string }).name !== "ConditionalCheckFailedException") throw err;
    }
    try {
      await this.update(article_id, clearTruncated(set, setExpression(set)));
      return "stored";
    } catch (err) {
      if (isTooLarge(err)) return "too_large";
      throw err;
    }
  }

  private async update(
    article_id: string,
    expr: UpdateParts & { ConditionExpression?: string },
  ): Promise<void> {
    await this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: { article_id }, ...expr }));
  }

  async get(articleId: string): Promise<Article | null> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { article_id: articleId }, ConsistentRead: true }),
    );
    if (!out.Item) return null;
    return decodeArticleItem(out.Item);
  }
}
