import { describe, expect, it } from "vitest";
import { extractArticle } from "../../../shared/extract/article";
import { parseHtml } from "../../../shared/extract/dom";
import { listItems } from "../../../shared/extract/list-items";
import { collectSignals } from "../../../shared/extract/page-signals";
import { PROSE_PARAGRAPH as para } from "../../support/article-html";

const NOW = new Date("2026-12-01T00:00:00Z");
const comment = (iso: string) =>
  `<div class="comment"><div class="comment-middle"><time datetime="${iso}">${iso.slice(11, 16)}</time><p>Nice.</p></div></div>`;

describe("listItems: elements that are items of a list", () => {
  it("marks the <time>s whose structure repeats, not the byline's", () => {
    const root = parseHtml(
      `<article><p class="byline"><time datetime="2020-09-20">20.09.2020</time></p>${comment("2020-09-23T18:19:06+02:00")}${comment("2020-09-26T10:40:52+02:00")}</article>`,
    );
    const times = collectSignals(root).times;
    const listed = listItems(times);
    expect(times.map((t) => listed.has(t))).toEqual([false, true, true]);
  });

  it("keeps a comment's date from being the article's", () => {
    const x = extractArticle({
      html: `<html><body><article><header><h1>Tomatoes cut the right way</h1></header><p>${para}</p><div class="box">by Marianne, am 20.09.2020</div>
        <section>${comment("2020-09-23T18:19:06+02:00")}${comment("2020-09-26T10:40:52+02:00")}</section></article></body></html>`,
      url: "https://recipes.example.org/tip/1918",
      now: NOW,
    });
    expect(x.published_day).toBe("2020-09-20");
  });
});
