/**
 * Sitemap URL lists as ultimate-sitemap-parser finds them: cases ported as data from its test suite
 * (GateNLP/ultimate-sitemap-parser tests/tree/: test_basic, test_edges, test_xml, test_plain_text,
 * test_from_str, test_security), each with the URLs its tests expect. Differences we keep on purpose
 * say why; overall agreement must stay ≥ 95 % of URLs.
 */
import { describe, expect, it } from "vitest";
import { parseSitemap } from "../../../shared/discover/sitemap";

const B = "http://test_ultimate-sitemap-parser.com";
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const NEWS_NS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"';
const XHTML_NS = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"';
const DATE = "2009-12-17T12:04:56+02:00";
const news = (title: string) =>
  `<news:news><news:publication><news:name>Test publication</news:name><news:language>en</news:language></news:publication><news:publication_date>${DATE}</news:publication_date><news:title>${title}</news:title></news:news>`;
const pages = (n: number) =>
  Array.from({ length: n }, (_, i) => `\n  <url>\n    <loc>${B}/page_${i}.html</loc>\n  </url>`).join("");
const page = (i: number) => `${B}/page_${i}.html`;
const LAUGHS = `<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n${Array.from(
  { length: 8 },
  (_, i) => `<!ENTITY lol${i + 2} "${`&lol${i + 1};`.repeat(10)}">`,
).join("\n")}\n]>`;

interface SitemapCase {
  name: string;
  text: string;
  /** What USP's test expects: page URLs, or child sitemap URLs for an index. */
  usp: string[];
  ours?: string[];
  why?: string;
  titles?: (string | null)[];
}

const CASES: SitemapCase[] = [
  {
    name: "test_basic: static pages with invalid changefreq and priority",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>\n<url><loc>${B}/about.html</loc><lastmod>${DATE}</lastmod><changefreq>monthly</changefreq><priority>0.8</priority></url>\n<url><loc>${B}/contact.html</loc><lastmod>${DATE}</lastmod>\n<!-- Invalid change frequency -->\n<changefreq>when we feel like it</changefreq>\n<priority>1.1</priority>\n</url>\n</urlset>`,
    usp: [`${B}/about.html`, `${B}/contact.html`],
  },
  {
    name: "test_basic: news index",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex ${NS}>\n<sitemap><loc>${B}/sitemap_news_1.xml</loc><lastmod>${DATE}</lastmod></sitemap>\n<sitemap><loc>${B}/sitemap_news_index_2.xml</loc><lastmod>${DATE}</lastmod></sitemap>\n</sitemapindex>`,
    usp: [`${B}/sitemap_news_1.xml`, `${B}/sitemap_news_index_2.xml`],
  },
  {
    name: "test_basic: news stories, empty <lastmod />, xhtml:link, entity-escaped titles",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS} ${NEWS_NS} ${XHTML_NS}>\n<url>\n<loc>${B}/news/foo.html</loc>\n<!-- Element present but empty -->\n<lastmod />\n<xhtml:link rel="alternate" media="only screen and (max-width: 640px)" href="${B}/news/foo.html?mobile=1" />\n${news("Foo &lt;foo&gt;")}\n</url>\n<url>\n<loc>${B}/news/bar.html</loc>\n<xhtml:link rel="alternate" media="only screen and (max-width: 640px)" href="${B}/news/bar.html?mobile=1" />\n${news("Bar &amp; bar")}\n</url>\n</urlset>`,
    usp: [`${B}/news/foo.html`, `${B}/news/bar.html`],
    titles: ["Foo <foo>", "Bar & bar"],
  },
  {
    name: "test_basic: index with whitespace around <loc>",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex ${NS}>\n<sitemap>\n<!-- Extra whitespace added around URL -->\n<loc>  ${B}/sitemap_news_2.xml  </loc>\n<lastmod>${DATE}</lastmod>\n</sitemap>\n<sitemap><loc>${B}/sitemap_news_missing.xml</loc><lastmod>${DATE}</lastmod></sitemap>\n</sitemapindex>`,
    usp: [`${B}/sitemap_news_2.xml`, `${B}/sitemap_news_missing.xml`],
  },
  {
    name: "test_basic: whitespace in <loc>, an unknown empty element, CDATA and UTF-8 title",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS} ${NEWS_NS} ${XHTML_NS}>\n<url>\n<loc>  ${B}/news/bar.html  </loc>\n<xhtml:link rel="alternate" href="${B}/news/bar.html?mobile=1#fragment_is_to_be_removed" />\n${news('Bar &amp; bar</news:title><tag_without_inner_character_data name="value" /><news:title>ignored')}\n</url>\n<url>\n<loc>${B}/news/baz.html</loc>\n${news("<![CDATA[Bąž]]>")}\n</url>\n</urlset>`,
    usp: [`${B}/news/bar.html`, `${B}/news/baz.html`],
    titles: ["Bar & bar", "Bąž"],
  },
  {
    name: "test_edges: UTF-8 BOM",
    text: `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS} ${NEWS_NS}>\n<url><loc>${B}/news/first.html</loc>${news("First story")}</url>\n</urlset>`,
    usp: [`${B}/news/first.html`],
  },
  {
    name: "test_edges: truncated, </urlset> missing",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS} ${NEWS_NS} ${XHTML_NS}>${pages(50)}`,
    usp: Array.from({ length: 50 }, (_, i) => page(i)),
  },
  {
    name: "test_edges: truncated in the middle of a <loc>",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS} ${NEWS_NS} ${XHTML_NS}>${pages(49)}\n<url>\n<loc>${B}/page_`,
    usp: Array.from({ length: 49 }, (_, i) => page(i)),
  },
  {
    name: "test_xml: clipped XML, the third story cut inside <news:publicat",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS} ${NEWS_NS}>\n<url><loc>${B}/news/first.html</loc>${news("First story")}</url>\n<url><loc>${B}/news/second.html</loc>${news("Second story")}</url>\n<!-- The following story shouldn't get added as the XML ends prematurely -->\n<url>\n<loc>${B}/news/third.html</loc>\n<news:news>\n<news:publication>\n<news:name>Test publication</news:name>\n<news:language>en</news:language>\n</news:publication>\n<news:publicat`,
    usp: [`${B}/news/first.html`, `${B}/news/second.html`],
  },
  {
    name: "test_xml: unpublished sitemap",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>\n<url>\n<loc>${B}/news/private.html</loc>\n</url>\n</urlset>`,
    usp: [`${B}/news/private.html`],
  },
  {
    name: "test_plain_text: blank lines and a line that is not a URL",
    text: `${B}/news/foo.html\n\n\n${B}/news/bar.html\n\nSome other stuff which totally doesn't look like an URL`,
    usp: [`${B}/news/foo.html`, `${B}/news/bar.html`],
  },
  {
    name: "test_plain_text: indented lines",
    text: `${B}/news/bar.html\n    ${B}/news/baz.html`,
    usp: [`${B}/news/bar.html`, `${B}/news/baz.html`],
  },
  {
    name: "test_from_str: pages",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>\n<url><loc>${B}/about.html</loc><lastmod>${DATE}</lastmod><changefreq>monthly</changefreq><priority>0.8</priority></url>\n<url><loc>${B}/contact.html</loc><lastmod>${DATE}</lastmod><changefreq>when we feel like it</changefreq><priority>1.1</priority></url>\n</urlset>`,
    usp: [`${B}/about.html`, `${B}/contact.html`],
  },
  {
    name: "test_security: billion laughs",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n${LAUGHS}\n<urlset ${NS}>\n<url>\n<loc>${B}/page.html</loc>\n</url>\n</urlset>`,
    usp: [],
    ours: [`${B}/page.html`],
    why: "USP refuses any DOCTYPE; we never expand entities, so the valid entry is kept and the DTD reported",
  },
];

function locsOf(text: string): string[] {
  const sm = parseSitemap(text);
  return sm.kind === "urlset" ? sm.urls.map((u) => u.loc) : sm.sitemaps.map((s) => s.loc);
}

describe("sitemap URL lists against ultimate-sitemap-parser", () => {
  for (const c of CASES) {
    it(`${c.name}${c.why ? ` (differs: ${c.why})` : ""}`, () => {
      expect(locsOf(c.text)).toEqual(c.ours ?? c.usp);
      if (c.titles) {
        const sm = parseSitemap(c.text);
        expect(sm.kind === "urlset" && sm.urls.map((u) => u.news?.title ?? null)).toEqual(c.titles);
      }
    });
  }

  it("≥ 95 % of the URLs agree", () => {
    let agree = 0;
    let total = 0;
    for (const c of CASES) {
      const ours = new Set(locsOf(c.text));
      const theirs = new Set(c.usp);
      for (const u of ours) if (theirs.has(u)) agree++;
      total += new Set([...ours, ...theirs]).size;
    }
    const lists = CASES.filter((c) => !c.ours).length;
    console.log(
      `sitemap URLs agreeing with ultimate-sitemap-parser: ${agree}/${total}; URL lists: ${lists}/${CASES.length}`,
    );
    expect(agree / total).toBeGreaterThanOrEqual(0.95);
  });

  it("the text sitemap's junk line is counted, not fatal", () => {
    const sm = parseSitemap(CASES[10]!.text);
    expect(sm.damage).toEqual(["1 line(s) that are not http(s) URLs skipped"]);
  });
});
