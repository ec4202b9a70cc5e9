import { describe, expect, it } from "vitest";
import { parseHtml } from "../../../shared/extract/dom";
import { headingCandidates, PART } from "../../../shared/extract/heading-candidates";
import { collectSignals } from "../../../shared/extract/page-signals";

const read = (html: string) => headingCandidates(collectSignals(parseHtml(html)).h1);
/** A heading's text as a reader sees it: part marks dropped, spaces collapsed. */
const shown = (h: string) => h.replaceAll(PART, "").replace(/\s+/g, " ").trim();

describe("headingCandidates", () => {
  it("keeps breadcrumb entries apart and puts the article's <h1> first", () => {
    const html = `<html><body><h1>Site banner headline</h1>
      <nav class="crumbs"><ol><li><a href="/">Home</a></li><li><h1><span>Trail</span> entry</h1></li></ol></nav>
      <main><article><h1><span class="kicker">Kicker</span> The headline</h1><p>Text.</p></article></main>
      </body></html>`;
    const { h1, h1Kicker, crumbH1 } = read(html);
    expect(h1.map(shown)).toEqual(["The headline", "Site banner headline"]);
    expect(h1Kicker).toEqual(["Kicker", null]);
    expect(crumbH1).toEqual(["Trail entry"]);
  });

  it("reads a kicker set just before the heading, or before the one element wrapping it, and nothing else", () => {
    const before = read(
      `<article><p class="article-topline">Energy</p><h1>Grid holds through the cold snap</h1></article>`,
    );
    expect(before.h1Kicker).toEqual(["Energy"]);
    const wrapped = read(
      `<article><div class="overline">Analysis</div><div class="title"><h1>Grid holds through the cold snap</h1></div></article>`,
    );
    expect(wrapped.h1Kicker).toEqual(["Analysis"]);
    const plain = read(
      `<article><p class="lead">Intro</p><h1>Grid holds through the cold snap</h1></article>`,
    );
    expect(plain.h1Kicker).toEqual([null]);
  });

  it("leaves out ruby readings and keeps a logo <h1>'s image text apart", () => {
    const html = `<html><body><header><h1><a href="/"><img src="/l.png" alt="Easy News"></a></h1></header>
      <article><h1><ruby>子<rt>こ</rt></ruby>どもへの<ruby>体罰<rp>(</rp><rt>たいばつ</rt><rp>)</rp></ruby>を禁止する</h1></article>
      </body></html>`;
    const { h1, logoH1 } = read(html);
    expect(h1.map(shown)).toEqual(["子どもへの体罰を禁止する"]);
    expect(logoH1).toEqual(["Easy News"]);
  });

  it("marks the parts of a heading, with a space where a line break or a block separates them", () => {
    const { h1 } = read(
      `<html><body><article><h1><span itemprop="headline"><small>Unit of the week</small><br>Medley pyramid</span></h1></article></body></html>`,
    );
    expect(h1.map(shown)).toEqual(["Unit of the week Medley pyramid"]);
    expect(
      h1[0]!
        .split(PART)
        .map((p) => p.trim())
        .filter(Boolean),
    ).toEqual(["Unit of the week", "Medley pyramid"]);
  });
});
