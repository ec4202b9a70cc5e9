import { describe, expect, it } from "vitest";
import { extractArticle } from "../../../shared/extract/article";
import { chooseHeadline } from "../../../shared/extract/headline";

const base = { jsonLd: null, og: null, twitter: null, h1: [], title: null, siteName: null };

/** The headline extractArticle reads from a small page: `head` in <head>, `body` in <body>. */
const headlineOf = (
  head: string,
  body: string,
  url = "https://news.example/sport/2026/05/31/story",
): string | null =>
  extractArticle({
    html: `<!doctype html><html><head>${head}</head><body>${body}<p>${"Words of the story. ".repeat(30)}</p></body></html>`,
    url,
    now: new Date("2026-06-01T12:00:00Z"),
  }).headline;
const ld = (o: object): string => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;

describe("chooseHeadline", () => {
  it("takes the candidate the sources agree on", () => {
    expect(
      chooseHeadline({ ...base, jsonLd: "Bridge reopens", og: "Bridge reopens", h1: ["Bridge reopens"] }),
    ).toBe("Bridge reopens");
  });

  it("prefers the visible <h1> over social and search titles when it is the article's headline", () => {
    // og:title written for sharing, <h1> and <title> for the page: the page's own headline wins.
    expect(
      chooseHeadline({
        ...base,
        og: "It's been a rough few months for the rocket company",
        twitter: "It's been a rough few months for the rocket company",
        h1: ["What's the hold-up at the rocket company?"],
        title: "What's the hold-up at the rocket company? | Site",
        siteName: "Site",
      }),
    ).toBe("What's the hold-up at the rocket company?");
    // The same words as og:title with other capitals or quotes: the form the page shows.
    expect(
      chooseHeadline({
        ...base,
        og: "Box Office: It's Good to Be 'Peculiar' | Fandom",
        h1: ["Box Office: It’s Good to Be ‘Peculiar’"],
        siteName: "Fandom",
      }),
    ).toBe("Box Office: It’s Good to Be ‘Peculiar’");
    // A logo or section label in an earlier <h1> is not the headline; the <h1> alike to og:title is.
    expect(
      chooseHeadline({
        ...base,
        og: "New mouse signs in to Windows with a fingerprint. | Maker Inc",
        h1: ["News releases", "New mouse signs in to Windows with a fingerprint"],
      }),
    ).toBe("New mouse signs in to Windows with a fingerprint");
  });

  it("keeps the declared headline when the <h1> is unrelated or only adds a kicker", () => {
    expect(
      chooseHeadline({
        ...base,
        og: "Bridge reopens after two years of repair",
        h1: ["Latest news from the region"],
      }),
    ).toBe("Bridge reopens after two years of repair");
    expect(
      chooseHeadline({
        ...base,
        og: "Guest of honour at the book fair: what do the Philippines read?",
        h1: ["Culture : Guest of honour at the book fair: what do the Philippines read?"],
      }),
    ).toBe("Guest of honour at the book fair: what do the Philippines read?");
  });

  it("drops a kicker from the <h1> when a declared headline is the <h1> without it, whatever repeats the <h1>", () => {
    // JSON-LD and <title> repeat the <h1> with its kicker ("Club-"); og:title states the headline proper.
    expect(
      headlineOf(
        `<title>Club-Coach Smith: "Nothing left to lose" - Sportpaper</title>
        <meta property="og:title" content='Coach Smith: "Nothing left to lose"'>
        <meta property="og:site_name" content="Sportpaper">
        ${ld({ "@type": "NewsArticle", headline: 'Club-Coach Smith: "Nothing left to lose"' })}`,
        `<article><h1>Club-Coach Smith: "Nothing left to lose"</h1></article>`,
      ),
    ).toBe('Coach Smith: "Nothing left to lose"');
    // Leading words without punctuation are the headline's own, and <title> alone (search wording) is no
    // evidence of a kicker.
    expect(
      headlineOf(
        `<title>The Doobie Brothers unite with their old singer for a tour – Musicpaper</title>
        <meta property="og:site_name" content="Musicpaper">
        <meta property="og:title" content="Doobie Brothers unite with their old singer for a tour">
        ${ld({ "@type": "NewsArticle", headline: "The Doobie Brothers unite with their old singer for a tour" })}`,
        `<h1>The Doobie Brothers unite with their old singer for a tour</h1>`,
      ),
    ).toBe("The Doobie Brothers unite with their old singer for a tour");
    expect(
      headlineOf(
        `<title>The 10 most common mistakes developers make | Devblog</title>
        <meta property="og:site_name" content="Devblog">
        <meta property="og:title" content="Buggy code: The 10 most common mistakes developers make">`,
        `<h1>Buggy code: The 10 most common mistakes developers make</h1>`,
      ),
    ).toBe("Buggy code: The 10 most common mistakes developers make");
  });

  it("reads the parts of an <h1>: no separator left by a dropped kicker, a subtitle part set apart", () => {
    // A kicker in its own element, dropped by its class, leaves the colon element after it.
    expect(
      headlineOf(
        `<meta property="og:title" content="MAG | Aviation takes off after the pandemic">
        <meta property="og:site_name" content="MAG">`,
        `<h1><span class="headline--topline">Orders boom</span> <span class="headline--colon">: </span>
        <span class="headline--1">Aviation takes off after the pandemic</span></h1>`,
      ),
    ).toBe("Aviation takes off after the pandemic");
    // A subtitle element inside the <h1> that no source states: the declared headline is the first part.
    expect(
      headlineOf(
        `<title>Broadcaster ignores the protest in the city - blog.de</title>
        <meta property="og:site_name" content="blog.de">
        ${ld({ "@type": "NewsArticle", headline: "Broadcaster ignores the protest in the city" })}`,
        `<h1><span class="entry-title-primary">Broadcaster ignores the protest in the city</span>
        <span class="entry-subtitle">Why the licence-fee channel looked away</span></h1>`,
      ),
    ).toBe("Broadcaster ignores the protest in the city");
    // When <title> states the <h1> whole, its second part is the headline's own.
    expect(
      headlineOf(
        `<title>Comparing SSDs in a small PC：goodbye water cooling - PC USER</title>
        <meta property="og:site_name" content="PC USER">
        <meta property="og:title" content="Comparing SSDs in a small PC">`,
        `<h1><span class="title__maintext">Comparing SSDs in a small PC</span><i class="title__delimiter">：</i><i class="title__subtitle">goodbye water cooling</i></h1>`,
      ),
    ).toBe("Comparing SSDs in a small PC：goodbye water cooling");
  });

  it("strips a site name that only the page's address states", () => {
    const at = (title: string, url: string) => headlineOf(`<title>${title}</title>`, "", url);
    expect(
      at("Polar air reaches the south - La Stampa", "https://www.lastampa.it/cronaca/2020/02/19/x"),
    ).toBe("Polar air reaches the south");
    expect(at("Weekly report 14 - 20 January - SLF", "https://www.slf.ch/de/report")).toBe(
      "Weekly report 14 - 20 January",
    );
    expect(at("BeginnersGuide/Download - Python Wiki", "https://wiki.python.org/moin/BeginnersGuide")).toBe(
      "BeginnersGuide/Download",
    );
    // A part longer than the headline that mentions the site is the headline's own.
    expect(at("Take care - comwrap at the fair 2018", "https://www.comwrap.com/blog/take-care")).toBe(
      "Take care - comwrap at the fair 2018",
    );
  });

  it("strips a site name joined without spaces when the page states the name (og:site_name or a logo <h1>)", () => {
    // The site logo is an <h1> holding only an image; its alt text names the site.
    expect(
      headlineOf(
        `<title>ツリーを描画できる「Treeviz」:devlog日誌</title>
        <meta property="og:title" content="ツリーを描画できる「Treeviz」:devlog日誌">`,
        `<div id="header"><h1><a href="/"><img src="/logo.png" alt="devlog日誌"></a></h1></div>`,
      ),
    ).toBe("ツリーを描画できる「Treeviz」");
    expect(
      headlineOf(
        `<title>Harbour bridge reopens after repair｜Courier</title><meta property="og:site_name" content="Courier">`,
        "",
      ),
    ).toBe("Harbour bridge reopens after repair");
    // A hyphen joins words: "Loan-Rates: …" keeps its first word although the site is named "Loan".
    expect(
      headlineOf(
        `<title>Loan-Rates: how to work out your costs</title><meta property="og:site_name" content="Loan">`,
        "",
      ),
    ).toBe("Loan-Rates: how to work out your costs");
  });

  it("strips the site name from <title> and og:title", () => {
    expect(chooseHeadline({ ...base, title: "Bridge reopens | The Courier", siteName: "The Courier" })).toBe(
      "Bridge reopens",
    );
  });

  it("prefers the og:title that is the JSON-LD headline minus a kicker", () => {
    expect(
      chooseHeadline({ ...base, jsonLd: "Kicker: The real headline here", og: "The real headline here" }),
    ).toBe("The real headline here");
  });

  it("prefers the shown and shared headline over the JSON-LD one that only <title> repeats", () => {
    const input = {
      ...base,
      jsonLd: "Search-friendly wording of the story",
      title: "Search-friendly wording of the story | Courier",
      og: "The story as the page shows it",
      h1: ["The story as the page shows it"],
      siteName: "Courier",
    };
    expect(chooseHeadline(input)).toBe("The story as the page shows it");
    // og:title repeating <title>, against a JSON-LD headline on its own: JSON-LD wins.
    expect(
      chooseHeadline({
        ...base,
        jsonLd: "Editorial headline of the story",
        og: "SEO wording of the same story",
        twitter: "SEO wording of the same story",
        title: "SEO wording of the same story",
        crumbH1: ["SEO wording of the same story"],
      }),
    ).toBe("Editorial headline of the story");
  });

  it("does not let a breadcrumb <h1> or a slug-like JSON-LD name vote", () => {
    expect(
      chooseHeadline({
        ...base,
        jsonLd: "Harbour bridge reopens after repair",
        jsonLdName: "d-161500790",
        crumbH1: ["Harbour bridge"],
        title: "Harbour bridge reopens after repair - Courier",
      }),
    ).toBe("Harbour bridge reopens after repair");
  });

  it("reads a meta value cut at a stray quote as the full wording", () => {
    expect(
      chooseHeadline({
        ...base,
        jsonLd: "Marathon day: parents not welcome at the start",
        og: "Marathon 2024: winner in record time and",
        twitter: "Marathon 2024: winner in record time and",
        title: 'Marathon 2024: winner in record time and "royal visit"',
        crumbH1: ['Marathon 2024: winner in record time and "royal visit"'],
      }),
    ).toBe("Marathon day: parents not welcome at the start");
  });

  it("keeps the wording most sources state exactly", () => {
    expect(
      chooseHeadline({
        ...base,
        jsonLd: "Dismantling a plant - Cooling towers demolished",
        og: "Dismantling a plant: Cooling towers demolished",
        title: "Dismantling a plant: Cooling towers demolished - Politics",
        crumbH1: ["Cooling towers demolished"],
      }),
    ).toBe("Dismantling a plant: Cooling towers demolished");
  });

  it("prefers the visible <h1> when og:title only adds a trailing qualifier", () => {
    expect(
      chooseHeadline({
        ...base,
        og: "Courier drives to Singapore on a bike, Thailand",
        title: "Courier drives to Singapore on a bike, Thailand",
        h1: ["Courier drives to Singapore on a bike"],
      }),
    ).toBe("Courier drives to Singapore on a bike");
  });

  it("returns null when there is nothing", () => {
    expect(chooseHeadline(base)).toBeNull();
  });
});
