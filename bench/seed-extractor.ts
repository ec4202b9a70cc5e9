/**
 * The seed's extractor, as the mission states its rules, written plainly for the benchmark (no seed
 * code exists in the repo): schema.org NewsArticle JSON-LD (articleBody, headline, datePublished)
 * first, then meta tags, then the <article> element with nav, header, footer, aside, form, script,
 * style and figure removed. Parsed with cheerio's default (parse5) `load`.
 */
import { load } from "cheerio";

export interface SeedExtraction {
  headline: string | null;
  body: string | null;
  published: string | null;
}

const NEWS_TYPES = new Set(["NewsArticle", "ReportageNewsArticle", "AnalysisNewsArticle", "Article"]);

function newsObjects(node: unknown, out: Record<string, unknown>[]): void {
  if (Array.isArray(node)) {
    for (const n of node) newsObjects(n, out);
    return;
  }
  if (!node || typeof node !== "object") return;
  const o = node as Record<string, unknown>;
  const types = Array.isArray(o["@type"]) ? o["@type"] : [o["@type"]];
  if (types.some((t) => typeof t === "string" && NEWS_TYPES.has(t))) out.push(o);
  if (o["@graph"]) newsObjects(o["@graph"], out);
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

export function seedExtract(html: string): SeedExtraction {
  const $ = load(html);
  let headline: string | null = null;
  let body: string | null = null;
  let published: string | null = null;
  $('script[type="application/ld+json"]').each((_, el) => {
    try {
      const found: Record<string, unknown>[] = [];
      newsObjects(JSON.parse($(el).text()), found);
      for (const o of found) {
        body ??= str(o.articleBody);
        headline ??= str(o.headline);
        published ??= str(o.datePublished);
      }
    } catch {
      // invalid JSON-LD: fall through to meta tags
    }
  });
  headline ??= str($('meta[property="og:title"]').attr("content")) ?? str($("title").first().text());
  published ??=
    str($('meta[property="article:published_time"]').attr("content")) ??
    str($('meta[name="date"]').attr("content"));
  if (!body) {
    const article = $("article").first();
    if (article.length > 0) {
      article.find("nav, header, footer, aside, form, script, style, figure").remove();
      body = str(article.text().replace(/\s+/g, " "));
    }
  }
  return { headline, body, published };
}
