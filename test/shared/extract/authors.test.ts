import { describe, expect, it } from "vitest";
import { extractAuthors } from "../../../shared/extract/authors";
import { parseHtml } from "../../../shared/extract/dom";
import { collectSignals } from "../../../shared/extract/page-signals";
import { readStructuredData } from "../../../shared/extract/structured-data";

const URL_ = "https://www.example-news.com/2024/05/01/story";

function bylineOf(html: string, opts: { headline?: string; siteNames?: string[] } = {}) {
  const signals = collectSignals(parseHtml(html));
  const { article, all } = readStructuredData(signals.jsonLd, URL_);
  return extractAuthors({
    article,
    all,
    signals,
    siteNames: opts.siteNames ?? [],
    url: URL_,
    headline: opts.headline ?? null,
  });
}
const authorsOf = (html: string, opts: { headline?: string; siteNames?: string[] } = {}): string[] =>
  bylineOf(html, opts).authors;

const ld = (o: unknown): string => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;

describe("extractAuthors", () => {
  it("credits news agencies and organisations apart from the people, and the masthead when nobody signs", () => {
    const signed = bylineOf(
      `<html><head>${ld({
        "@type": "NewsArticle",
        author: [
          { "@type": "Person", name: "Felix Roe" },
          { "@type": "Organization", name: "Wire Desk" },
        ],
      })}
      <meta name="author" content="Felix Roe, dpa"></head><body></body></html>`,
    );
    expect(signed).toEqual({ authors: ["Felix Roe"], credit: ["Wire Desk"] });
    const wire = bylineOf(
      `<html><head><meta name="author" content="Jane Roe, Reuters"></head><body></body></html>`,
    );
    expect(wire).toEqual({ authors: ["Jane Roe"], credit: ["Reuters"] });
    const agencyOnly = bylineOf(
      `<html><head><meta name="author" content="dpa/AFP"></head><body></body></html>`,
    );
    expect(agencyOnly).toEqual({ authors: [], credit: ["dpa/AFP"] });
    const masthead = bylineOf(
      `<html><head>${ld({ "@type": "NewsArticle", author: { "@type": "Organization", name: "The Courier" } })}</head><body></body></html>`,
      { siteNames: ["The Courier"] },
    );
    expect(masthead).toEqual({ authors: [], credit: ["The Courier"] });
  });

  it("takes no share or profile button for a name", () => {
    const html = `<html><body><article><h1>Big story here today</h1>
      <div class="byline"><a href="https://facebook.com/x">Facebook</a> <span>Twitter</span></div></article></body></html>`;
    expect(authorsOf(html, { headline: "Big story here today" })).toEqual([]);
  });

  it("reads JSON-LD author arrays and Person objects referenced by @id in an @graph", () => {
    const html = `<html><head>${ld({
      "@context": "https://schema.org",
      "@graph": [
        {
          "@type": "NewsArticle",
          headline: "H",
          author: [{ "@id": "#p1" }, { "@type": "Person", name: "Bo Berg" }],
        },
        { "@type": "Person", "@id": "#p1", name: "Ann Alm" },
      ],
    })}</head><body></body></html>`;
    expect(authorsOf(html)).toEqual(["Ann Alm", "Bo Berg"]);
  });

  it("prefers the byline's people to an Organization author or the site's own name", () => {
    const html = `<html><head>${ld({ "@type": "NewsArticle", author: { "@type": "Organization", name: "ABC News" } })}
      <meta name="author" content="ABC News"></head><body><article><h1>Big story here today</h1>
      <div class="ShareByline"><span>By</span>by Jane Roe and John Doe December 16, 2016</div></article></body></html>`;
    expect(authorsOf(html, { headline: "Big story here today", siteNames: ["ABC News"] })).toEqual([
      "Jane Roe",
      "John Doe",
    ]);
  });

  it("credits the organisation when no source names a person", () => {
    const html = `<html><head>${ld({ "@type": "NewsArticle", author: { "@type": "Organization", name: "Wire Desk" } })}</head><body></body></html>`;
    expect(bylineOf(html)).toEqual({ authors: [], credit: ["Wire Desk"] });
  });

  it("reads author meta tags (parsely-author, article:author that is not a URL)", () => {
    const html = `<html><head><meta property="article:author" content="https://facebook.com/x">
      <meta name="parsely-author" content="Kim Lee"></head><body></body></html>`;
    expect(authorsOf(html)).toEqual(["Kim Lee"]);
  });

  it("takes the byline next to the headline, not a teaser's before or after it", () => {
    const teaser = (n: string) =>
      `<div class="teaser"><h2>Other</h2><span class="byline">By ${n}</span></div>`;
    const html = `<html><body>${teaser("Early Teaser")}<h1>Logo</h1>${teaser("Side Teaser")}
      <main><h1>The actual headline of the page</h1><p class="byline">By <a rel="author" href="/a/kathy">Kathy Wise</a></p>
      <p>Text.</p></main>${teaser("Late Teaser")}</body></html>`;
    expect(authorsOf(html, { headline: "The actual headline of the page" })).toEqual(["Kathy Wise"]);
  });

  it("ignores comment authors and social-profile link texts in the author box", () => {
    const html = `<html><body><article><h1>Headline of the story</h1>
      <div class="author-box"><a href="https://twitter.com/x">Twitter</a></div>
      <div class="comments"><span class="comment-author">Troll Person</span></div></article></body></html>`;
    expect(authorsOf(html, { headline: "Headline of the story" })).toEqual([]);
  });

  it("takes declared microdata authors as written, but not lower-case text in a plain byline box", () => {
    const a = `<html><body><h1>Headline of the story</h1><span itemprop="author">dpa</span></body></html>`;
    expect(bylineOf(a, { headline: "Headline of the story" })).toEqual({ authors: [], credit: ["dpa"] });
    const c = `<html><body><h1>Headline of the story</h1><span itemprop="author">jane roe</span></body></html>`;
    expect(authorsOf(c, { headline: "Headline of the story" })).toEqual(["jane roe"]);
    const b = `<html><body><h1>Headline of the story</h1><div class="author">3 min read</div><div class="author-cat">capital</div></body></html>`;
    expect(authorsOf(b, { headline: "Headline of the story" })).toEqual([]);
  });
});

describe("an account name in a meta tag", () => {
  it("is written as the byline spells the same name", () => {
    const html = `<html><head><meta name="author" content="janeroe"></head><body><article>
      <h1>The headline of the story</h1><div class="byline">By Jane Roe</div><p>Text.</p></article></body></html>`;
    expect(authorsOf(html, { headline: "The headline of the story" })).toEqual(["Jane Roe"]);
  });

  it("stays when no source spells it out", () => {
    const html = `<html><head><meta name="author" content="janeroe"></head><body><h1>The headline</h1></body></html>`;
    expect(authorsOf(html)).toEqual(["janeroe"]);
  });
});

describe("byline markup that names no byline class", () => {
  it("reads a link to the author's page (/author/<slug>) as the byline", () => {
    const html = `<html><body><article><h1>Concussion Payments Can Begin</h1>
      <div class="story__info"><span class="story__info__item">By <a href="/author/kathy-wise"> Kathy Wise </a></span>
      <span class="story__info__item">Published in <a href="/magazine/">the magazine</a></span></div>
      <p>Body text.</p></article></body></html>`;
    expect(authorsOf(html, { headline: "Concussion Payments Can Begin" })).toEqual(["Kathy Wise"]);
  });

  it("reads a microdata author's name from a <link>/<meta> content below it", () => {
    const html = `<html><body><h1>Keynote of the conference</h1><div><span itemprop="author" itemscope itemtype="http://schema.org/Person"><link itemprop="url" href="/user/Confreaks"><link itemprop="name" content="Confreaks"></span></div></body></html>`;
    expect(authorsOf(html, { headline: "Keynote of the conference" })).toEqual(["Confreaks"]);
  });

  it("reads a declared author in a byline bar marked up as navigation, not a plain name there", () => {
    const bar = (inner: string) =>
      `<html><body><div class="hd"><h1>Trump talks retaliation</h1></div><nav class="post-by"><span>Edited by <a href="/topic/swati-bhasin">${inner}</a></span></nav></body></html>`;
    expect(
      authorsOf(bar(`<span itemprop="author" itemscope><span itemprop="name">Swati Bhasin</span></span>`), {
        headline: "Trump talks retaliation",
      }),
    ).toEqual(["Swati Bhasin"]);
    expect(
      authorsOf(bar(`<span class="author">Swati Bhasin</span>`), { headline: "Trump talks retaliation" }),
    ).toEqual([]);
  });

  it("reads a class naming the writer", () => {
    const html = `<html><body><div class="leaf-headline"><h1>アップルのニュース</h1><div class="leaf-headline-inner">
      <span class="writer">松村太郎</span><span class="date">2019年04月13日</span></div></div></body></html>`;
    expect(authorsOf(html, { headline: "アップルのニュース" })).toEqual(["松村太郎"]);
  });
});

describe("bylines of lists", () => {
  const teaser = (name: string) =>
    `<li><div class="content"><div class="headline">Another story</div><div class="byline"><span>By</span> <span>${name}</span></div></div></li>`;

  it("skips teasers' bylines, which repeat one structure, for the article's own", () => {
    const html = `<html><body><h1>How the story ended</h1><ul>${teaser("Ed Kilgore")}${teaser("Ed Kilgore")}</ul>
      <div class="authors"><span>By</span> <span itemprop="author" itemscope itemtype="http://schema.org/Person"><a href="/people/gabriel-sherman/"><span>Gabriel Sherman</span><meta itemprop="name" content="Gabriel Sherman"></a></span></div></body></html>`;
    expect(authorsOf(html, { headline: "The revenge" })).toEqual(["Gabriel Sherman"]);
  });

  it("keeps several authors' links side by side in one byline", () => {
    const html = `<html><body><article><h1>Three reporters on one story</h1><div class="byline">By <a href="/author/ann-lee">Ann Lee</a>, <a href="/author/bo-ma">Bo Ma</a> and <a href="/author/cy-ng">Cy Ng</a></div></article></body></html>`;
    expect(authorsOf(html, { headline: "Three reporters on one story" })).toEqual([
      "Ann Lee",
      "Bo Ma",
      "Cy Ng",
    ]);
  });
});

describe("names only from an author box", () => {
  it("takes the linked names, not the role, bio or flyout links beside them", () => {
    const html = `<html><body><article><h1>Giuliani withdraws</h1><div class="byline">
      <span class="author vcard"><a class="author url fn" href="/author/andrew-husband/">Andrew Husband</a></span>
      <span class="author-title">News &amp; Culture Writer</span>
      <div class="author-flyout"><a class="author-flyout-link" href="/author/andrew-husband/">View author archive</a>
      <a class="author-flyout-link" href="/author/andrew-husband/feed/">Get author RSS feed</a></div></div></article></body></html>`;
    expect(authorsOf(html, { headline: "Giuliani withdraws" })).toEqual(["Andrew Husband"]);
  });

  it("drops an author meta that is the copyright holder (the publisher)", () => {
    const html = `<html><head><meta name="author" content="Condé Nast"><meta name="author" content="Larry Fitzmaurice">
      <meta name="copyright" content="Copyright (c) Condé Nast 2022"></head><body><h1>Album review</h1></body></html>`;
    expect(authorsOf(html, { headline: "Album review" })).toEqual(["Larry Fitzmaurice"]);
  });
});

describe("the labelled byline line after the headline", () => {
  const page = (line: string, more = "") =>
    `<html><body><article><h1>The headline of the story</h1><div class="meta"><span>${line}</span></div>${more}
      <p>${"Words of the story. ".repeat(20)}</p></article></body></html>`;

  it("names the people of a plain line opening with a byline label, split on the language's 'and'", () => {
    expect(
      authorsOf(page("Von Anna Muster und Max Beispiel"), { headline: "The headline of the story" }),
    ).toEqual(["Anna Muster", "Max Beispiel"]);
    expect(authorsOf(page("By Matthew Digby and Minh Do on Monday"))).toEqual(["Matthew Digby", "Minh Do"]);
  });

  it("keeps an agency the line names as a credit and drops a lone acronym", () => {
    const b = bylineOf(page("Por Agencia EFE"));
    expect(b).toEqual({ authors: [], credit: ["Agencia EFE"] });
    expect(authorsOf(page("Von Volkmar Kabisch, Benedikt Strunz, NDR"))).toEqual([
      "Volkmar Kabisch",
      "Benedikt Strunz",
    ]);
  });

  it("ignores lines that are not a byline: a sentence, a metadata line, a line far below the headline", () => {
    expect(authorsOf(page("By continuing you accept cookies"))).toEqual([]);
    expect(authorsOf(page("Von Redaktion Kategorie: Pflege, _Newsletter"))).toEqual([]);
    const far = `<html><body><h1>The headline of the story</h1>${"<div><span>x</span></div>".repeat(30)}
      <p>By Jane Roe</p></body></html>`;
    expect(authorsOf(far)).toEqual([]);
  });

  it("is trusted least: a byline marked up as such wins", () => {
    expect(authorsOf(page("By Jane Roe", `<a rel="author" href="/author/john-doe">John Doe</a>`))).toEqual([
      "John Doe",
    ]);
  });
});
