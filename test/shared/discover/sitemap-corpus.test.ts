/**
 * Sitemap URL lists as ultimate-sitemap-parser finds them: every document of its test suite whose pages
 * it lists (GateNLP/ultimate-sitemap-parser tests/tree/: test_basic with its gzip and huge cases,
 * test_edges, test_xml, test_xml_exts, test_rss_atom, test_plain_text, test_from_str, test_security),
 * ported as data with the URLs its tests expect; the gzip ones over HTTP. Its tree-level tests (loops,
 * recursion, redirects to robots.txt) are in discover-scope.test.ts. Differences we keep on purpose say
 * why; ≥ 95 % of the URLs and of the whole lists must agree.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFeed } from "../../../shared/discover/feed";
import { parseSitemap } from "../../../shared/discover/sitemap";
import { HttpClient } from "../../../shared/fetch/http";

const B = "http://test_ultimate-sitemap-parser.com";
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const NEWS_NS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"';
const XHTML_NS = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"';
const DATE = "2009-12-17T12:04:56+02:00";
const RFC2822 = "Thu, 17 Dec 2009 12:04:56 +0200";
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
    name: "test_basic: a huge sitemap (1,000 news pages, empty <lastmod />, xhtml:link)",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS} ${NEWS_NS} ${XHTML_NS}>${Array.from(
      { length: 1000 },
      (_, i) =>
        `\n<url>\n<loc>${B}/news/page_${i}.html</loc>\n<!-- Element present but empty -->\n<lastmod />\n<xhtml:link rel="alternate" media="only screen and (max-width: 640px)" href="${B}/news/page_${i}.html?mobile=1" />\n${news("Foo &lt;foo&gt;")}\n</url>`,
    ).join("")}</urlset>`,
    usp: Array.from({ length: 1000 }, (_, i) => `${B}/news/page_${i}.html`),
  },
  {
    name: "test_xml_exts: image sitemap (image:image with loc, caption, geo_location, title, license)",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n<url>\n<loc>${B}/sample1.html</loc>\n<image:image>\n<image:loc>${B}/image.jpg</image:loc>\n<image:caption>Example Caption</image:caption>\n<image:geo_location>Sheffield, UK</image:geo_location>\n<image:title>Example Title</image:title>\n<image:license>https://creativecommons.org/publicdomain/zero/1.0/</image:license>\n</image:image>\n<image:image>\n<image:loc>${B}/photo.jpg</image:loc>\n</image:image>\n</url>\n<url>\n<loc>${B}/sample2.html</loc>\n<image:image>\n<image:loc>${B}/picture.jpg</image:loc>\n</image:image>\n</url>\n</urlset>`,
    usp: [`${B}/sample1.html`, `${B}/sample2.html`],
  },
  {
    name: "test_xml_exts: hreflang alternates",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS} ${XHTML_NS}>\n<url>\n<loc>${B}/en/page</loc>\n<lastmod>${DATE}</lastmod>\n<changefreq>monthly</changefreq>\n<priority>0.8</priority>\n<xhtml:link rel="alternate" hreflang="fr-FR" href="${B}/fr/page"/>\n</url>\n<url>\n<loc>${B}/fr/page</loc>\n<lastmod>${DATE}</lastmod>\n<changefreq>monthly</changefreq>\n<priority>0.8</priority>\n<xhtml:link rel="alternate" hreflang="en-GB" href="${B}/en/page"/>\n</url>\n</urlset>`,
    usp: [`${B}/en/page`, `${B}/fr/page`],
  },
  {
    name: "test_from_str: index",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex ${NS}>\n<sitemap>\n<loc>${B}/sitemap_news_1.xml</loc>\n<lastmod>${DATE}</lastmod>\n</sitemap>\n<sitemap>\n<loc>${B}/sitemap_news_index_2.xml</loc>\n<lastmod>${DATE}</lastmod>\n</sitemap>\n</sitemapindex>`,
    usp: [`${B}/sitemap_news_1.xml`, `${B}/sitemap_news_index_2.xml`],
  },
  {
    name: "test_rss_atom: RSS 2.0 as a sitemap",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0">\n<channel>\n<title>Test RSS 2.0 feed</title>\n<description>This is a test RSS 2.0 feed.</description>\n<link>${B}</link>\n<pubDate>${RFC2822}</pubDate>\n${[
      1, 2,
    ]
      .map(
        (i) =>
          `<item>\n<title>Test RSS 2.0 story #${i}</title>\n<description>This is a test RSS 2.0 story #${i}.</description>\n<link>${B}/rss_story_${i}.html</link>\n<guid isPermaLink="true">${B}/rss_story_${i}.html</guid>\n<pubDate>${RFC2822}</pubDate>\n</item>`,
      )
      .join("\n")}\n</channel>\n</rss>`,
    usp: [`${B}/rss_story_1.html`, `${B}/rss_story_2.html`],
  },
  {
    name: "test_rss_atom: Atom 0.3 as a sitemap",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<feed version="0.3" xmlns="http://purl.org/atom/ns#">\n<title>Test Atom 0.3 feed</title>\n<link rel="alternate" type="text/html" href="${B}" />\n<modified>${DATE}</modified>\n${[
      1, 2,
    ]
      .map(
        (i) =>
          `<entry>\n<title>Test Atom 0.3 story #${i}</title>\n<link rel="alternate" type="text/html" href="${B}/atom_0_3_story_${i}.html" />\n<id>${B}/atom_0_3_story_${i}.html</id>\n<issued>${DATE}</issued>\n</entry>`,
      )
      .join("\n")}\n</feed>`,
    usp: [`${B}/atom_0_3_story_1.html`, `${B}/atom_0_3_story_2.html`],
  },
  {
    name: "test_rss_atom: Atom 1.0 as a sitemap (a plain link, then rel=alternate and rel=edit ones)",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n<title>Test Atom 1.0 feed</title>\n<subtitle>This is a test Atom 1.0 feed.</subtitle>\n<link href="${B}/sitemap_atom_1_0.xml" rel="self" />\n<link href="${B}" />\n<id>${B}</id>\n<updated>${DATE}</updated>\n${[
      1, 2,
    ]
      .map(
        (i) =>
          `<entry>\n<title>Test Atom 1.0 story #${i}</title>\n<link href="${B}/atom_1_0_story_${i}.html" />\n<link rel="alternate" type="text/html" href="${B}/atom_1_0_story_${i}.html?alt" />\n<link rel="edit" href="${B}/atom_1_0_story_${i}.html?edit" />\n<id>${B}/atom_1_0_story_${i}.html</id>\n<updated>${DATE}</updated>\n<summary>This is test atom 1.0 story #${i}.</summary>\n<content type="xhtml">\n<div xmlns="http://www.w3.org/1999/xhtml">\n<p>This is test atom 1.0 story #${i}.</p>\n</div>\n</content>\n<author>\n<name>John Doe</name>\n<email>johndoe@example.com</email>\n</author>\n</entry>`,
      )
      .join("\n")}\n</feed>`,
    usp: [`${B}/atom_1_0_story_1.html`, `${B}/atom_1_0_story_2.html`],
  },
  {
    name: "test_rss_atom: empty RSS 2.0",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0">\n<channel>\n<title>Test RSS 2.0 feed</title>\n<description>This is a test RSS 2.0 feed.</description>\n<link>${B}</link>\n<pubDate>${RFC2822}</pubDate>\n</channel>\n</rss>`,
    usp: [],
  },
  {
    name: "test_rss_atom: empty Atom 0.3",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<feed version="0.3" xmlns="http://purl.org/atom/ns#">\n<title>Test Atom 0.3 feed</title>\n<link rel="alternate" type="text/html" href="${B}" />\n<modified>${DATE}</modified>\n</feed>`,
    usp: [],
  },
  {
    name: "test_rss_atom: empty Atom 1.0",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n<title>Test Atom 1.0 feed</title>\n<subtitle>This is a test Atom 1.0 feed.</subtitle>\n<link href="${B}/sitemap_atom_1_0.xml" rel="self" />\n<link href="${B}" />\n<id>${B}</id>\n<updated>${DATE}</updated>\n</feed>`,
    usp: [],
  },
  {
    name: "test_security: billion laughs",
    text: `<?xml version="1.0" encoding="UTF-8"?>\n${LAUGHS}\n<urlset ${NS}>\n<url>\n<loc>${B}/page.html</loc>\n</url>\n</urlset>`,
    usp: [],
    ours: [`${B}/page.html`],
    why: "USP refuses any DOCTYPE; we never expand entities, so the valid entry is kept and the DTD reported",
  },
];

/** The URLs of one document as discovery reads a sitemap: a urlset or an index, else an RSS or Atom feed (sitemaps.org allows both). */
function locsOf(text: string): string[] {
  let sm: ReturnType<typeof parseSitemap>;
  try {
    sm = parseSitemap(text);
  } catch {
    return parseFeed(text, `${B}/sitemap.xml`).items.map((i) => i.url);
  }
  return sm.kind === "urlset" ? sm.urls.map((u) => u.loc) : sm.sitemaps.map((s) => s.loc);
}

/** test_basic's gzip cases go through HTTP, as discovery reads them: gzip files are inflated by their bytes. */
const GZIP_CASES: {
  name: string;
  path: string;
  body: Buffer;
  headers: Record<string, string>;
  usp: string[];
}[] = [
  {
    name: "test_basic gzip: sitemap_1.gz, gzipped, no gzip Content-Type",
    path: "/sitemap_1.gz",
    body: gzipSync(urlsetOf(`${B}/news/foo.html`, "Foo &lt;foo&gt;")),
    headers: {},
    usp: [`${B}/news/foo.html`],
  },
  {
    name: "test_basic gzip: sitemap_2.dat, application/x-gzip without a .gz name",
    path: "/sitemap_2.dat",
    body: gzipSync(urlsetOf(`${B}/news/bar.html`, "<![CDATA[Bąr]]>")),
    headers: { "content-type": "application/x-gzip" },
    usp: [`${B}/news/bar.html`],
  },
  {
    name: "test_basic gzip: sitemap_3.xml.gz, named and typed gzip but plain XML",
    path: "/sitemap_3.xml.gz",
    body: Buffer.from(urlsetOf(`${B}/news/baz.html`, "<![CDATA[Bąž]]>")),
    headers: { "content-type": "application/x-gzip" },
    usp: [`${B}/news/baz.html`],
  },
];

function urlsetOf(loc: string, title: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS} ${NEWS_NS}>\n<url>\n<loc>${loc}</loc>\n${news(title)}\n</url>\n</urlset>`;
}

/** Each case's list as we find it, beside USP's, for the agreement figures. */
const results: { ours: string[]; usp: string[] }[] = [];

describe("sitemap URL lists against ultimate-sitemap-parser", () => {
  for (const c of CASES) {
    it(`${c.name}${c.why ? ` (differs: ${c.why})` : ""}`, () => {
      const ours = locsOf(c.text);
      results.push({ ours, usp: c.usp });
      expect(ours).toEqual(c.ours ?? c.usp);
      if (c.titles) {
        const sm = parseSitemap(c.text);
        expect(sm.kind === "urlset" && sm.urls.map((u) => u.news?.title ?? null)).toEqual(c.titles);
      }
    });
  }

  describe("over HTTP", () => {
    const http = new HttpClient({ userAgent: "storytrail-test/1.0", allowPrivateAddresses: true });
    const server = createServer((req, res) => {
      const c = GZIP_CASES.find((g) => g.path === req.url);
      if (!c) return res.writeHead(404).end();
      res.writeHead(200, c.headers).end(c.body);
    });
    let base = "";
    beforeAll(async () => {
      await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await http.close();
      await new Promise((ok) => server.close(ok));
    });
    for (const c of GZIP_CASES) {
      it(c.name, async () => {
        const res = await http.fetch(`${base}${c.path}`, { accept: "feed" });
        expect(res.ok).toBe(true);
        const ours = res.ok ? locsOf(res.text) : [];
        results.push({ ours, usp: c.usp });
        expect(ours).toEqual(c.usp);
      });
    }
  });

  it("≥ 95 % of the URLs and of the whole lists agree", () => {
    let agree = 0;
    let total = 0;
    for (const r of results) {
      const theirs = new Set(r.usp);
      for (const u of new Set(r.ours)) if (theirs.has(u)) agree++;
      total += new Set([...r.ours, ...r.usp]).size;
    }
    const lists = results.filter((r) => JSON.stringify(r.ours) === JSON.stringify(r.usp)).length;
    console.log(
      `sitemap URLs agreeing with ultimate-sitemap-parser: ${agree}/${total}; URL lists: ${lists}/${results.length}`,
    );
    expect(results).toHaveLength(CASES.length + GZIP_CASES.length);
    expect(agree / total).toBeGreaterThanOrEqual(0.95);
    expect(lists / results.length).toBeGreaterThanOrEqual(0.95);
  });

  it("the text sitemap's junk line is counted, not fatal", () => {
    const sm = parseSitemap(CASES[10]!.text);
    expect(sm.damage).toEqual(["1 line(s) that are not http(s) URLs skipped"]);
  });
});
