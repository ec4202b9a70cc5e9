/**
 * The sitemap issue 14 measured: 1.1 M entries in 49.6 MB (45 bytes each, the protocol's 50 MB cap),
 * its URLs on one host the bench source allows (n.ws).
 */
export const MEMORY_SITEMAP_ENTRIES = 1_100_000;

export function memorySitemap(entries: number): string {
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`,
  ];
  for (let i = 0; i < entries; i++)
    parts.push(`<url><loc>http://n.ws/s/${String(i).padStart(9, "0")}</loc></url>`);
  parts.push("</urlset>");
  return parts.join("");
}
