/** Sitemaps, news sitemaps, sitemap indexes, RSS and Atom feeds for the demo web's outlets. */
import { escapeHtml } from "./page-templates";

export interface Listing {
  readonly url: string;
  readonly headline: string;
  /** ISO instant. */
  readonly published: string;
  /** ISO instant of the last revision, when the page has changed since it was published. */
  readonly lastmod?: string;
  readonly summary?: string;
}

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SITEMAP_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

export function sitemap(items: readonly Listing[]): string {
  return `${XML}<urlset ${SITEMAP_NS}>
${items.map((i) => `<url><loc>${escapeHtml(i.url)}</loc><lastmod>${i.lastmod ?? i.published}</lastmod></url>`).join("\n")}
</urlset>`;
}

export function newsSitemap(publication: string, items: readonly Listing[]): string {
  return `${XML}<urlset ${SITEMAP_NS} xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
${items
  .map(
    (
      i,
    ) => `<url><loc>${escapeHtml(i.url)}</loc>${i.lastmod ? `<lastmod>${i.lastmod}</lastmod>` : ""}<news:news><news:publication><news:name>${escapeHtml(publication)}</news:name><news:language>en</news:language></news:publication>
<news:publication_date>${i.published}</news:publication_date><news:title>${escapeHtml(i.headline)}</news:title></news:news></url>`,
  )
  .join("\n")}
</urlset>`;
}

export function sitemapIndex(children: readonly { url: string; lastmod: string }[]): string {
  return `${XML}<sitemapindex ${SITEMAP_NS}>
${children.map((c) => `<sitemap><loc>${escapeHtml(c.url)}</loc><lastmod>${c.lastmod}</lastmod></sitemap>`).join("\n")}
</sitemapindex>`;
}

export function rss(publication: string, home: string, items: readonly Listing[]): string {
  return `${XML}<rss version="2.0"><channel><title>${escapeHtml(publication)}</title><link>${escapeHtml(home)}</link><description>Latest from ${escapeHtml(publication)}</description>
${items
  .map(
    (i) =>
      `<item><title>${escapeHtml(i.headline)}</title><link>${escapeHtml(i.url)}</link><guid isPermaLink="false">${escapeHtml(i.url)}</guid><pubDate>${new Date(i.published).toUTCString()}</pubDate>${i.summary ? `<description>${escapeHtml(i.summary)}</description>` : ""}</item>`,
  )
  .join("\n")}
</channel></rss>`;
}

export function atom(publication: string, home: string, items: readonly Listing[]): string {
  const updated =
    items
      .map((i) => i.lastmod ?? i.published)
      .sort()
      .at(-1) ?? "2026-01-01T00:00:00Z";
  return `${XML}<feed xmlns="http://www.w3.org/2005/Atom"><title>${escapeHtml(publication)}</title><id>${escapeHtml(home)}</id><updated>${updated}</updated><link href="${escapeHtml(home)}"/>
${items
  .map(
    (i) =>
      `<entry><title>${escapeHtml(i.headline)}</title><id>${escapeHtml(i.url)}</id><link rel="alternate" href="${escapeHtml(i.url)}"/><published>${i.published}</published><updated>${i.lastmod ?? i.published}</updated></entry>`,
  )
  .join("\n")}
</feed>`;
}

export function robots(sitemaps: readonly string[]): string {
  return `User-agent: *\nDisallow: /private/\n${sitemaps.map((s) => `Sitemap: ${s}\n`).join("")}`;
}
