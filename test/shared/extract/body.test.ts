import { type Element, Text } from "domhandler";
import { describe, expect, it } from "vitest";
import { extractBody } from "../../../shared/extract/body";
import { parseHtml } from "../../../shared/extract/dom";
import { bodyText as body, prose } from "../../support/article-html";
import { deepChain } from "../../support/deep-tree";

describe("extractBody", () => {
  it("drops navigation, asides, footers, forms, figures and scripts", () => {
    const text = body(
      `<nav><a href="/">Home</a></nav><article>${prose("Main")}<figure><figcaption>A caption</figcaption></figure>
       <script>var x = "script text";</script><form><p>Your email address for updates</p></form></article>
       <aside><p>Aside text that is long enough to look like a paragraph of prose, but is not.</p></aside>
       <footer><p>Footer text</p></footer>`,
    );
    expect(text).toContain("Main paragraph 1");
    for (const gone of ["Home", "A caption", "script text", "Your email", "Aside text", "Footer text"]) {
      expect(text).not.toContain(gone);
    }
  });

  it("drops share, related, newsletter and comment blocks by class", () => {
    const text = body(
      `<div class="story">${prose("Main")}
        <div class="share-bar"><p>Share this story with your friends and family today</p></div>
        <div class="newsletter-box"><p>Get the morning briefing in your inbox every day.</p></div>
        <ul class="related-links"><li><a href="/x">Another story about something else entirely</a></li></ul>
        <div id="comments"><p>A reader comment that goes on for a while about the council.</p></div></div>`,
    );
    expect(text).toContain("Main paragraph 3");
    for (const gone of ["Share this", "morning briefing", "Another story", "reader comment"]) {
      expect(text).not.toContain(gone);
    }
  });

  it("keeps subheadings and lists of the article, separates paragraphs by blank lines", () => {
    const text = body(
      `<article>${prose("One", 2)}<h2>What comes next</h2><ul><li>First step</li><li>Second step</li></ul>${prose("Two", 2)}</article>`,
    );
    expect(text).toContain("What comes next\n\nFirst step\n\nSecond step");
    expect(text.split("\n\n").length).toBeGreaterThanOrEqual(7);
  });

  it("picks the article container over a longer link list", () => {
    const links = Array.from(
      { length: 40 },
      (_, i) => `<li><a href="/s${i}">Headline number ${i} of another story</a></li>`,
    );
    const text = body(
      `<div class="menu-list"><ul>${links.join("")}</ul></div><div class="content">${prose("Real")}</div>`,
    );
    expect(text).toContain("Real paragraph 1");
    expect(text).not.toContain("Headline number");
  });

  it("leaves out the headline and one-line promos, and normalises whitespace and entities", () => {
    const text = body(
      `<article><h1>The Headline</h1><p>Read more: <a href="/x">Other</a></p>${prose("Main", 2)}<p>Tom &amp;   Jerry&nbsp;met.</p></article>`,
      "The Headline",
    );
    expect(text).not.toContain("The Headline");
    expect(text).not.toContain("Read more");
    expect(text).toContain("Tom & Jerry met.");
  });

  it("joins a body split into same-class blocks around an ad", () => {
    const text = body(
      `<div class="chunks"><div class="wrap"><div class="body-part">${prose("First", 3)}</div></div>
       <div class="ad">Advertisement</div><div class="wrap"><div class="body-part">${prose("Second", 3)}</div></div></div>`,
    );
    expect(text).toContain("First paragraph 1");
    expect(text).toContain("Second paragraph 3");
  });
});

describe("extractBody over deep trees", () => {
  it("finds the article beside 100,000 nested <div>s (a tree built by hand, past the parser's depth limit)", () => {
    const doc = parseHtml(`<html><body><article>${prose("Main", 6)}</article></body></html>`);
    const bodyEl = (doc.children[0] as Element).children.find(
      (c) => c.type === "tag" && (c as Element).name === "body",
    ) as Element;
    const chain = deepChain(100_000, new Text("bottom"));
    bodyEl.children.push(chain);
    chain.parent = bodyEl;
    const text = extractBody(doc, { headline: null }).text;
    expect(text).toContain("Main paragraph 6");
  });

  it("finds a 420-word article followed by 5,000 nested <div>s", () => {
    const words = Array.from({ length: 420 }, (_, i) => `word${i}`).join(" ");
    const text = body(`<article><p>${words}.</p></article>${"<div>".repeat(5000)}x${"</div>".repeat(5000)}`);
    expect(text).toContain("word419");
  });
});

// Issue 12's failure kinds on unseen pages, each on a small synthetic page.
describe("extractBody by structure", () => {
  it("drops a hidden copy of the body, even one marked articleBody", () => {
    const text = body(
      `<div style="display:none" itemprop="articleBody">${prose("Hidden", 4)}</div>
       <article><div class="text">${prose("Main", 4)}</div></article>`,
    );
    expect(text).toContain("Main paragraph 4");
    expect(text).not.toContain("Hidden paragraph");
  });

  it("keeps a hidden marked body that is the page's only text", () => {
    const text = body(`<div hidden><div itemprop="articleBody">${prose("Main", 4)}</div></div>`);
    expect(text).toContain("Main paragraph 4");
  });

  it("drops captions and credits whose class names are compounds (imageCaption, photoCredit)", () => {
    const text = body(
      `<article>${prose("Main", 2)}<div class="imageCaption">The mayor speaks to residents at the town hall on Tuesday.</div>
       <p class="photoCredit">Jane Doe for The Gazette</p>${prose("More", 2)}</article>`,
    );
    expect(text).toContain("More paragraph 2");
    expect(text).not.toContain("The mayor speaks");
    expect(text).not.toContain("Jane Doe");
  });
});

describe("lead paragraph", () => {
  it("keeps the words of a lead written as lines apart", () => {
    const text = body(
      `<article><div class="head"><div class="lead">The council met on Tuesday and heard from residents.<br>It agreed to publish the full report next month, after the summer break.</div></div>
       <div class="story">${prose("Main", 4)}</div></article>`,
    );
    expect(text).toContain("residents. It agreed");
  });
});
