import { describe, expect, it } from "vitest";
import { bodyText as body, proseSentence as sentence } from "../../support/article-html";

describe("BodyPass: what is dropped before the container is chosen", () => {
  it("keeps paragraphs whose wrappers are named 'inline' (a layout word, not boilerplate)", () => {
    const inline = [3, 4, 5, 6]
      .map((i) => `<div class="story-element-inline"><p>${sentence("Wrapped", i)}</p></div>`)
      .join("");
    const text = body(
      `<article><p>${sentence("Open", 1)}</p><p>${sentence("Open", 2)}</p><p>${sentence("Open", 7)}</p>${inline}</article>`,
    );
    expect(text).toContain("Open paragraph 1");
    for (const i of [3, 4, 5, 6]) expect(text).toContain(`Wrapped paragraph ${i}`);
  });

  it("keeps a link inside a sentence whatever its class names (icon, tooltip, more)", () => {
    const text = body(
      `<article><p>${sentence("Open", 1)}</p><p>${sentence("Open", 2)}</p><p>Shares of <a class="stock-icon" href="/f">Ford</a> rose after the <a class="lexicon tooltip-link" href="/g">greenhouse gas</a> rules, see <a class="more" href="https://example.org">example.org</a> for the details.</p></article>`,
    );
    expect(text).toContain(
      "Shares of Ford rose after the greenhouse gas rules, see example.org for the details.",
    );
  });

  it("still drops a link block of its own with such a class", () => {
    const text = body(
      `<article><p>${sentence("Open", 1)}</p><p>${sentence("Open", 2)}</p><p><a class="more" href="/more">More from the city desk and its reporters</a></p></article>`,
    );
    expect(text).not.toContain("More from the city desk");
  });

  it("leaves out a hover card (an image and several links inside an inline element) from the sentence", () => {
    const card = `<span class="person"><a href="/p/jane">Jane Doe</a><span class="pop"><img src="jane.jpg" alt=""><a href="/p/jane">Jane Doe</a> Reporter at the city desk <a href="/follow/jane">Follow</a><a href="/p/jane/all">All articles</a></span></span>`;
    const text = body(
      `<article><p>${sentence("Open", 1)}</p><p>${sentence("Open", 2)}</p><p>The budget, said ${card}, will pass next week.</p></article>`,
    );
    expect(text).toContain("The budget, said Jane Doe, will pass next week.");
    expect(text).not.toContain("Follow");
  });

  it("keeps an inline element with an image and links that is the whole paragraph", () => {
    const text = body(
      `<article><p>${sentence("Open", 1)}</p><p>${sentence("Open", 2)}</p><p><span><img src="a.png" alt=""> Read the <a href="/r">report</a> and the <a href="/a">annex</a> online.</span></p></article>`,
    );
    expect(text).toContain("Read the report and the annex online.");
  });

  it("keeps an embedded post's text: a quotation whatever its and its blocks' class names (embed, social)", () => {
    const text = body(
      `<article><p>${sentence("Open", 1)}</p><p>${sentence("Open", 2)}</p><blockquote class="social-embed"><div class="embed__content"><p>We will open the new bridge on Monday morning, two weeks ahead of plan.</p></div></blockquote><p>${sentence("Close", 3)}</p></article>`,
    );
    expect(text).toContain("We will open the new bridge on Monday morning");
  });

  it("keeps the article text a page serves inside its paywall container, drops the prompt with its button", () => {
    const text = body(
      `<article><p>${sentence("Open", 1)}</p><p>${sentence("Open", 2)}</p><div class="paywall"><p>${sentence("Paid", 3)}</p><p>${sentence("Paid", 4)}</p></div><div class="paywall-prompt"><p>Only members can read on from here.</p><button>Join</button></div></article>`,
    );
    expect(text).toContain("Paid paragraph 4");
    expect(text).not.toContain("Only members");
  });

  it("keeps article blocks named teaser, meta, rating or toc (layout and feature names, not boilerplate)", () => {
    const text = body(
      `<article><div class="story-teaser"><p>${sentence("Lead", 1)}</p></div><p>${sentence("Open", 2)}</p><p>${sentence("Open", 3)}</p><div class="meta-box"><p>${sentence("Boxed", 4)}</p></div><p>${sentence("Open", 5)}</p></article>`,
    );
    expect(text).toContain("Lead paragraph 1");
    expect(text).toContain("Boxed paragraph 4");
  });
});
