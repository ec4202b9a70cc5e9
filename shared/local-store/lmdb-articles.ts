/**
 * The Articles table and the raw samples on one machine: each article stored as the very item the
 * DynamoDB adapter writes (articleItemFields, body gzip), so every reader of Articles items reads it;
 * url_variants accumulate up to the same cap. Raw samples are gzip files under the store's folder, by
 * the key the S3 adapter would give them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { articleItemFields, decodeArticleItem, MAX_URL_VARIANTS } from "../consumer/article-item";
import type { ArticleStore, RawSampleStore } from "../crawl/ports";
import { gzipRawHtml } from "../crawl/raw-sample";
import type { Article } from "../records";
import type { StagedTable } from "./staged-table";

export class LmdbArticles implements ArticleStore {
  constructor(private readonly items: StagedTable<string, Record<string, unknown>>) {}

  async put(article: Article, bodyGzip?: Uint8Array): Promise<"stored" | "too_large"> {
    const { article_id, url_variants, ...fields } = articleItemFields(article, bodyGzip);
    const before = (this.items.get(article_id)?.url_variants as string[] | undefined) ?? [];
    const variants = [...new Set([...before, ...url_variants])].slice(
      0,
      Math.max(MAX_URL_VARIANTS, before.length),
    );
    this.items.put(article_id, {
      ...fields,
      article_id,
      url_variants: variants,
      collected_day: fields.collected_at.slice(0, 10),
    });
    return "stored";
  }

  async get(articleId: string): Promise<Article | null> {
    const item = this.items.get(articleId);
    return item ? decodeArticleItem(item) : null;
  }
}

export class SampleFiles implements RawSampleStore {
  constructor(private readonly dir: string) {}

  async put(s: { article_id: string; html: string | { readonly gzip: Uint8Array } }): Promise<string> {
    const key = `raw/${s.article_id}.html.gz`;
    const file = join(this.dir, key);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof s.html === "string" ? gzipRawHtml(s.html) : s.html.gzip);
    return key;
  }
}
