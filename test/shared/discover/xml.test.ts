import { describe, expect, it } from "vitest";
import { parseFeed } from "../../../shared/discover/feed";
import { parseSitemap } from "../../../shared/discover/sitemap";
import { readXml, textOf, type XmlElement } from "../../../shared/discover/xml";
import { BILLION_LAUGHS, SITEMAP_NS } from "../../support/news-server";

const base = "https://news.example";
const rss = (items: string, tail = "</channel></rss>") =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>${items}${tail}`;
const item = (n: number, extra = "") =>
  `<item><title>Story ${n}</title>${extra}<link>${base}/${n}</link></item>`;
const urls = (text: string) => parseFeed(text, `${base}/feed.xml`).items.map((i) => i.url);

function capture(text: string, name: string, limits?: Parameters<typeof readXml>[2]) {
  const got: XmlElement[] = [];
  const r = readXml(
    text,
    {
      capture: (n) => n === name,
      onElement: (el) => {
        got.push(el);
        return undefined;
      },
    },
    limits,
  );
  return { ...r, got };
}

describe("readXml: damage costs only the entry it sits in", () => {
  it("unclosed HTML in a <description> (<p>hi<br></p>, <img …>) keeps every later item", () => {
    const text = rss(
      item(1, "<description><p>hi<br></p></description>") +
        item(2, '<description><img src="x.png"> and <div><p>text</description>') +
        item(3),
    );
    expect(urls(text)).toEqual([`${base}/1`, `${base}/2`, `${base}/3`]);
    expect(parseFeed(text, base).damage).toContain("unclosed element closed by an outer close tag (×2)");
  });

  it("a feed truncated before its last '>' keeps every item", () => {
    expect(urls(rss(item(1) + item(2), "</channel></rss"))).toEqual([`${base}/1`, `${base}/2`]);
  });

  it("a feed cut inside an item keeps the items before it and says the last one was dropped", () => {
    const feed = parseFeed(rss(item(1) + item(2) + `<item><link>${base}/3</li`, ""), base);
    expect(feed.items.map((i) => i.url)).toEqual([`${base}/1`, `${base}/2`]);
    expect(feed.damage).toEqual(["document ends inside <item> (truncated?); that entry dropped"]);
  });

  it("an unclosed CDATA keeps the items before the break", () => {
    const text = rss(
      `${item(1)}<item><title><![CDATA[never closed</title><link>${base}/2</link></item>${item(3)}`,
    );
    expect(urls(text)).toEqual([`${base}/1`]);
  });

  it("stray close tags are ignored", () => {
    expect(urls(rss(`${item(1, "</p></span>")}</div>${item(2)}`))).toEqual([`${base}/1`, `${base}/2`]);
  });

  it("billion laughs: entities are never expanded, the declaration is reported, every valid item kept", () => {
    const started = performance.now();
    const feed = parseFeed(BILLION_LAUGHS.replace("</channel>", `${item(2)}</channel>`), base);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(feed.items.map((i) => i.url)).toEqual(["https://example.com/laughs", `${base}/2`]);
    expect(feed.items[0]?.title).toBe("&lol9;");
    expect(feed.damage).toEqual(["DTD entity declaration ignored (entities are never expanded) (×10)"]);
  });

  it("deep nesting (100,000 levels) is skipped past maxDepth, iteratively, and the entries around it kept", () => {
    const deep = `${"<div>".repeat(100_000)}deep${"</div>".repeat(100_000)}`;
    const feed = parseFeed(rss(item(1, `<description>${deep}</description>`) + item(2)), base);
    expect(feed.items.map((i) => i.url)).toEqual([`${base}/1`, `${base}/2`]);
    expect(feed.damage).toEqual(["elements nested deeper than 64 skipped"]);
  });

  it("deep nesting that never closes still ends, with the entries before it", () => {
    const feed = parseFeed(rss(item(1) + "<x>".repeat(200_000), ""), base);
    expect(feed.items.map((i) => i.url)).toEqual([`${base}/1`]);
  });

  it("an entry's tree is capped in elements and characters; the entry is kept", () => {
    const many = "<b>x</b>".repeat(5_000);
    const r = capture(`<r><e>${many}<loc>kept?</loc></e><e>${"y".repeat(300_000)}</e></r>`, "e");
    expect(r.got).toHaveLength(2);
    expect(r.got[0]!.children.length).toBeLessThanOrEqual(2_000);
    expect(textOf(r.got[1])?.length).toBe(256 * 1024);
    expect(r.damage).toEqual([
      "more than 2000 elements in one entry cut",
      `text beyond ${256 * 1024} characters in one <e> cut`,
    ]);
  });

  it("a visitor's skip stops building trees; later ones are only counted", () => {
    const text = `<urlset ${SITEMAP_NS}>${Array.from({ length: 10 }, (_, i) => `<url><loc>${base}/${i}</loc></url>`).join("")}</urlset>`;
    const sm = parseSitemap(text, { maxEntries: 3 });
    expect(sm.kind === "urlset" && sm.urls.map((u) => u.loc)).toEqual([
      `${base}/0`,
      `${base}/1`,
      `${base}/2`,
    ]);
    expect(sm.skipped).toBe(7);
  });
});

describe("parseFeed titles", () => {
  it("Atom type=html: markup stripped, entities decoded (twice-escaped &amp;amp; gives &)", () => {
    const feed = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title type="html">AT&amp;amp;T &lt;b&gt;bold&lt;/b&gt; caf&amp;eacute;</title><link href="${base}/a"/></entry></feed>`,
      base,
    );
    expect(feed.items[0]?.title).toBe("AT&T bold café");
  });

  it("Atom type=xhtml: the inline text of every element, in order", () => {
    const feed = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Some <b>bold</b> &amp; <i>italic</i> text</div></title><link href="${base}/b"/></entry></feed>`,
      base,
    );
    expect(feed.items[0]?.title).toBe("Some bold & italic text");
  });

  it("Atom type=text keeps what looks like markup", () => {
    const feed = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title type="text">a &lt;b&gt; c</title><link href="${base}/c"/></entry></feed>`,
      base,
    );
    expect(feed.items[0]?.title).toBe("a <b> c");
  });

  it("RSS: HTML entities (not XML's) decode; escaped markup is stripped", () => {
    const feed = parseFeed(
      rss(
        `<item><title>Caf&eacute; &amp; cr&egrave;me&nbsp;br&ucirc;l&eacute;e</title><link>${base}/1</link></item><item><title>&lt;em&gt;Breaking&lt;/em&gt;: news</title><link>${base}/2</link></item>`,
      ),
      base,
    );
    expect(feed.items.map((i) => i.title)).toEqual(["Café & crème brûlée", "Breaking: news"]);
  });
});
