import { describe, expect, it } from "vitest";
import { extractArticle } from "../../../shared/extract/article";
import { parseHtml } from "../../../shared/extract/dom";
import { headerDate } from "../../../shared/extract/header-dates";
import { collectSignals } from "../../../shared/extract/page-signals";
import { recordInstants } from "../../../shared/records";
import { PROSE_PARAGRAPH as para } from "../../support/article-html";

const NOW = new Date("2026-12-01T00:00:00Z");
const HEADLINE = "Headline of the story";

function header(body: string, headline: string | null = HEADLINE): string | null {
  const root = parseHtml(`<html><body>${body}</body></html>`);
  return headerDate({ signals: collectSignals(root), root, headline, now: NOW })?.date.day ?? null;
}

const extract = (head: string, body: string) =>
  extractArticle({
    html: `<html><head>${head}</head><body><div class="wrap"><div class="site">Site · Mittwoch, 01.11.2023</div></div><article><header><h1>${HEADLINE}</h1>${body}</header><p>${para}</p></article></body></html>`,
    url: "https://news.example.org/story",
    now: NOW,
  });

describe("headerDate: the date the article's header shows", () => {
  it("reads the byline below the headline, not running text, captions or hidden and updated fields", () => {
    const body = `<main><div class="head"><h1>${HEADLINE}</h1>
      <time class="hidden" itemprop="dateModified">2018-08-29 14:15:57</time>
      <figure><img src="a.jpg"><figcaption>The square on 15 May 2025</figcaption></figure>
      <p class="byline">By A. Writer · 22.06.2018</p></div>
      <div class="text"><p>${para} On 3 March 2017 it began.</p></div></main>`;
    expect(header(body)).toBe("2018-06-22");
  });

  it("stops where the body begins: a date in the article's running text or a fact list is not the byline", () => {
    const body = `<main><header><h1>${HEADLINE}</h1><span>A. Writer</span></header>
      <div class="entry-content">${para}<ul><li>Datum: 31/08/2019</li></ul></div></main>`;
    expect(header(body)).toBeNull();
  });

  it("keeps a standfirst beside the headline and reads the date after it", () => {
    const body = `<div><div><h1>${HEADLINE}</h1><div class="intro">${para}</div>
      <span class="meta">5. November 2021</span></div></div>`;
    expect(header(body)).toBe("2021-11-05");
  });

  it("prefers a date labelled as the publication, its label in the element before it", () => {
    const body = `<div><h1>${HEADLINE}</h1><p>Stand: 15.10.2021</p>
      <span>Erschienen am:</span><strong>13.10.2021</strong></div>`;
    expect(header(body)).toBe("2021-10-13");
  });

  it("reads above the headline only in the headline's own block (a kicker), not a teaser list before it", () => {
    const teasers = `<ul><li><a href="/a">Other story, 04.05.2020</a></li></ul>`;
    expect(header(`<div>${teasers}<div><h1>${HEADLINE}</h1></div></div>`)).toBeNull();
    expect(
      header(`<div>${teasers}<div><span>Politik · 03.05.2020</span><h1>${HEADLINE}</h1></div></div>`),
    ).toBe("2020-05-03");
  });

  it("finds the headline's <h2> whatever its dashes and quotes", () => {
    const body = `<div class="page"><div class="top"><div class="page-header"><h2>Kolumne: Queer Royal - Über „Dragqueens“</h2></div>
      <div class="intro"><p><span class="datum">31. Oktober 2023.</span> ${para}</p></div></div></div>`;
    expect(header(body, 'Kolumne: Queer Royal – Über "Dragqueens"')).toBe("2023-10-31");
  });

  it("finds the headline in an <h2> when the <h1> is the site's name", () => {
    const body = `<header><h1>The Daily Site Name</h1><span class="date">Tue, 14 Jan 2020</span></header>
      <nav><a href="/">Home</a></nav><section><div><h2>${HEADLINE}</h2><p>News24<br>13 Jan 2020, 22:11</p></div></section>`;
    expect(header(body)).toBe("2020-01-13");
  });
});

describe("the visible byline over structured data that disagrees with it", () => {
  it("beats a Dublin Core or plain 'date' meta field (any date of the document) on any other day", () => {
    const x = extract(
      `<meta name="date" content="2020-04-29T11:52:23">`,
      `<p>Stand: 28.04.2020 18:00 Uhr</p>`,
    );
    expect(x.published_day).toBe("2020-04-28");
    // No timezone stated: the overridden structured date is kept as its day.
    expect(x.published_at_structured).toBe("2020-04-29");
  });

  it("beats a publication field more than a day away", () => {
    const x = extract(
      `<script type="application/ld+json">{"@type":"NewsArticle","headline":"${HEADLINE}","datePublished":"2022-01-04T07:29:00Z"}</script>`,
      `<div class="info">06.01.2022</div>`,
    );
    expect(x.published_day).toBe("2022-01-06");
  });

  it("keeps the structured date it beat beside the byline's, as stated and in record form", () => {
    const x = extract(
      `<script type="application/ld+json">{"@type":"NewsArticle","headline":"${HEADLINE}","datePublished":"2022-01-04T08:29:00+01:00"}</script>`,
      `<div class="info">Published 06.01.2022 10:15 CET</div>`,
    );
    expect(x).toMatchObject({
      published_day: "2022-01-06",
      published_at: "2022-01-06T09:15:00Z",
      published_at_source: "text",
      published_at_structured: "2022-01-04T07:29:00Z",
    });
    expect(recordInstants(x)).toEqual({
      published_at: "2022-01-06T09:15:00.000Z",
      published_at_structured: "2022-01-04T07:29:00.000Z",
      modified_at: null,
    });
  });

  it("does not beat a publication field when the byline states an update", () => {
    const x = extract(
      `<meta property="article:published_time" content="2019-03-08T13:00:00Z">`,
      `<p>2019.03.26 lastupdate</p>`,
    );
    expect(x.published_day).toBe("2019-03-08");
    expect(x.published_at_structured).toBeNull();
  });

  it("beats the first date of the text (the site header's) on a page whose headline is an <h2>", () => {
    const x = extractArticle({
      html: `<html><head><title>${HEADLINE}</title></head><body><header><a href="/">The Daily Site</a><span class="date">Tue, 14 Jan 2020</span></header>
        <section><h2>${HEADLINE}</h2><p>News24<br>13 Jan 2020, 22:11</p><div><p>${para}</p><p>${para}</p></div></section></body></html>`,
      url: "https://news.example.org/news/263700449/story",
      now: NOW,
    });
    expect(x.published_day).toBe("2020-01-13");
    // The date it beat was read from the text, not structured data: nothing to keep.
    expect(x.published_at_structured).toBeNull();
  });

  it("leaves a neighbouring day to the timezone rule", () => {
    const x = extract(
      `<meta property="article:published_time" content="2019-12-09T19:00:49+01:00">`,
      `<p>10.12.2019</p>`,
    );
    expect(x.published_day).toBe("2019-12-09");
    expect(x.published_at_structured).toBeNull();
  });
});
