/**
 * The demo web's article page templates. Each outlet has its own markup, the way real sites differ:
 * where the date is (JSON-LD, microdata, meta tags, a <time> element), how the body is wrapped, what
 * boilerplate surrounds it. The extractor has to cope with all of them.
 */

export type TemplateStyle = "jsonld" | "microdata" | "meta" | "time" | "amp";

export interface PageContent {
  readonly publication: string;
  readonly headline: string;
  readonly paragraphs: readonly string[];
  /** ISO instant; the templates write it in their own form. */
  readonly published: string;
  readonly section: string;
  readonly canonical: string;
  readonly author: string;
  /** false marks the page paywalled (schema.org isAccessibleForFree). */
  readonly free?: boolean;
  /** ISO instant of the page's last revision: the publisher's own update markup (dateModified,
   * article:modified_time, a `<time class="updated">`), as CMSs write it on every republish. */
  readonly modified?: string;
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The instant at a fixed offset (e.g. "+01:00"), as sites in other time zones write it. */
function withOffset(iso: string, hours: number): string {
  const t = new Date(Date.parse(iso) + hours * 3_600_000).toISOString().slice(0, 19);
  const sign = hours < 0 ? "-" : "+";
  return `${t}${sign}${String(Math.abs(hours)).padStart(2, "0")}:00`;
}

const paras = (c: PageContent) => c.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n");

function jsonLd(c: PageContent): string {
  const data = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: c.headline,
    datePublished: c.published,
    ...(c.modified ? { dateModified: c.modified } : {}),
    articleSection: c.section,
    inLanguage: "en",
    author: { "@type": "Person", name: c.author },
    publisher: { "@type": "Organization", name: c.publication },
    mainEntityOfPage: c.canonical,
    ...(c.free === false
      ? {
          isAccessibleForFree: false,
          hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: ".paywall" },
        }
      : {}),
  };
  return `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;
}

const head = (c: PageContent, extra: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>${escapeHtml(c.headline)} | ${escapeHtml(c.publication)}</title>
<link rel="canonical" href="${escapeHtml(c.canonical)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
${extra}
</head>`;

const nav = (c: PageContent, links: readonly string[]) =>
  `<nav><a href="/">${escapeHtml(c.publication)}</a> ${links.map((l) => `<a href="/${l.toLowerCase()}">${l}</a>`).join(" ")}</nav>`;

const footer = (c: PageContent) =>
  `<footer><p>&copy; ${escapeHtml(c.publication)}. All rights reserved.</p><form><input name="email" placeholder="Your e-mail"><button>Sign up for the morning briefing</button></form></footer>`;

const related = `<aside class="related"><h2>Most read</h2><ul><li><a href="/x1">Weather warning for the weekend</a></li><li><a href="/x2">Markets close slightly higher</a></li><li><a href="/x3">Letters to the editor</a></li></ul></aside>`;

export function renderArticle(style: TemplateStyle, c: PageContent): string {
  switch (style) {
    case "jsonld":
      return `${head(c, `<meta property="og:title" content="${escapeHtml(c.headline)}">\n${jsonLd(c)}`)}
<body><header>${nav(c, ["World", "Business", "City", "Sport"])}</header>
<main><article>
<h1>${escapeHtml(c.headline)}</h1>
<p class="byline">By ${escapeHtml(c.author)}</p>
${c.free === false ? `${paras({ ...c, paragraphs: c.paragraphs.slice(0, 3) })}\n<div class="paywall"><p>Subscribe to read the rest of this article.</p></div>` : paras(c)}
</article>${related}</main>
${footer(c)}</body></html>`;
    case "microdata":
      return `${head(c, "")}
<body><div id="top">${nav(c, ["News", "Science", "Culture"])}</div>
<div class="page" itemscope itemtype="https://schema.org/NewsArticle">
<h1 itemprop="headline">${escapeHtml(c.headline)}</h1>
<div class="meta">By <span itemprop="author">${escapeHtml(c.author)}</span> ·
<meta itemprop="datePublished" content="${withOffset(c.published, 1)}">${withOffset(c.published, 1).slice(0, 10)}${c.modified ? `\n<meta itemprop="dateModified" content="${withOffset(c.modified, 1)}">` : ""}</div>
<div itemprop="articleBody">
${paras(c)}
</div></div>
<div class="share">Share this: <a href="/share?fb">Facebook</a> <a href="/share?x">X</a></div>
${footer(c)}</body></html>`;
    case "meta":
      return `${head(
        c,
        `<meta property="og:title" content="${escapeHtml(c.headline)}">
<meta property="og:type" content="article">
<meta property="article:published_time" content="${withOffset(c.published, -5)}">${c.modified ? `\n<meta property="article:modified_time" content="${withOffset(c.modified, -5)}">` : ""}
<meta property="article:section" content="${escapeHtml(c.section)}">
<meta name="author" content="${escapeHtml(c.author)}">`,
      )}
<body><header class="masthead"><h2 class="brand">${escapeHtml(c.publication)}</h2>${nav(c, ["Local", "Region", "Opinion"])}</header>
<div class="story">
<h1 class="story-title">${escapeHtml(c.headline)}</h1>
<div class="story-body">
${paras(c)}
</div></div>
${related}
${footer(c)}</body></html>`;
    case "time":
      return `${head(c, `<meta property="og:title" content="${escapeHtml(c.headline)}">`)}
<body>${nav(c, ["Home", "Business", "Tech"])}
<section class="content"><article class="post">
<header><h1>${escapeHtml(c.headline)}</h1>
<p>${escapeHtml(c.author)} — <time datetime="${c.published}">${c.published.slice(0, 10)}</time>${c.modified ? ` · Updated <time class="updated" datetime="${c.modified}">${c.modified.slice(0, 10)}</time>` : ""}</p></header>
<div class="post-body">
${paras(c)}
</div></article></section>
<div class="comments"><h3>Comments (0)</h3><p>Be the first to comment.</p></div>
${footer(c)}</body></html>`;
    case "amp":
      return `<!doctype html>
<html amp lang="en"><head><meta charset="utf-8">
<title>${escapeHtml(c.headline)}</title>
<link rel="canonical" href="${escapeHtml(c.canonical)}">
<meta name="viewport" content="width=device-width">
${jsonLd(c)}
<style amp-custom>body{font-family:sans-serif}</style>
</head><body><article><h1>${escapeHtml(c.headline)}</h1>
${paras(c)}
</article></body></html>`;
  }
}
