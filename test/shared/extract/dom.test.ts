import { type AnyNode, type Element, Text } from "domhandler";
import { parseDocument } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { elementsInOrder, PARSE_LIMITS, parseHtml, rawText, textOf } from "../../../shared/extract/dom";
import { deepChain } from "../../support/deep-tree";

/** Depth of the deepest element, measured iteratively. */
function maxDepth(root: AnyNode): number {
  let max = 0;
  const stack: [AnyNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    max = Math.max(max, d);
    if ("children" in n) for (const c of n.children) if (c.type === "tag") stack.push([c, d + 1]);
  }
  return max;
}

function countElements(root: AnyNode): number {
  let n = 0;
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.type === "tag") n++;
    if ("children" in x) stack.push(...x.children);
  }
  return n;
}

const body = (doc: AnyNode): Element => {
  const html = (doc as Element).children.find((c) => c.type === "tag") as Element;
  return html.children.find((c) => c.type === "tag" && (c as Element).name === "body") as Element;
};

describe("parseHtml bounds what a page can build", () => {
  it("caps the depth of 100,000 nested <div>s and keeps the innermost text", () => {
    const n = 100_000;
    const doc = parseHtml(`<div>${"<div>".repeat(n)}deep text${"</div>".repeat(n)}</div>`);
    expect(maxDepth(doc)).toBeLessThanOrEqual(PARSE_LIMITS.maxDepth);
    expect(rawText(doc)).toBe("deep text");
  });

  it("matches the end tags of ignored deep tags, so what follows the deep region keeps its place", () => {
    const n = 5_000;
    const doc = parseHtml(
      `<html><body><main>${"<div>".repeat(n)}x${"</div>".repeat(n)}<p id="after">after</p></main></body></html>`,
    );
    const main = body(doc).children.find((c) => c.type === "tag") as Element;
    const after = main.children.find((c) => c.type === "tag" && (c as Element).attribs.id === "after");
    expect(after).toBeDefined();
  });

  it("stops building elements past maxNodes but keeps their text", () => {
    const n = PARSE_LIMITS.maxNodes + 5_000;
    const doc = parseHtml(`<html><body>${"<b>w</b>".repeat(n)}<p>the end</p></body></html>`);
    expect(countElements(doc)).toBeLessThanOrEqual(PARSE_LIMITS.maxNodes);
    expect(rawText(doc).endsWith("the end")).toBe(true);
    expect(rawText(doc).length).toBe(n + "the end".length);
  });

  it("keeps the first maxAttributes attributes of an element", () => {
    const attrs = Array.from({ length: 10_000 }, (_, i) => `a${i}="${i}"`).join(" ");
    const doc = parseHtml(`<div ${attrs}>x</div>`);
    const div = (doc as unknown as Element).children[0] as Element;
    expect(Object.keys(div.attribs)).toHaveLength(PARSE_LIMITS.maxAttributes);
    expect(div.attribs.a0).toBe("0");
    expect(rawText(doc)).toBe("x");
  });

  it("parses ordinary markup as htmlparser2 does (void, self-closing, implied ends, scripts)", () => {
    const doc = parseHtml(
      `<html><head><script>if (a < b) x = "</div>";</script></head><body><p>one<p>two<br>three<img src=x><svg><path/></svg></body></html>`,
    );
    const b = body(doc);
    expect(b.children.map((c) => (c as Element).name)).toEqual(["p", "p"]);
    expect(rawText(b)).toBe("onetwothree");
  });
});

/** A tree as plain data (names, attributes, text), scripts' and styles' text left out as parseHtml leaves it. */
function shape(node: AnyNode): unknown {
  if (node.type === "text") return (node as unknown as { data: string }).data;
  if (node.type === "comment") return { comment: (node as unknown as { data: string }).data };
  if (!("children" in node)) return { type: node.type };
  const el = node as Element;
  const inert = el.type === "style" || (el.type === "script" && !/ld\+json/.test(el.attribs.type ?? ""));
  return {
    name: el.name,
    attribs: el.attribs,
    children: inert ? [] : el.children.map(shape),
  };
}

describe("parseHtml's faster scans give htmlparser2's tree", () => {
  const pages = [
    // Entities in text and in both quotings of attribute values, at the ends and mid-run.
    `<p title="a &amp; b" data-x='it&#39;s' class=plain>&lt;tag&gt; fish &amp; chips&nbsp;&copy;</p>`,
    `<div id="x">text ending in an entity &amp;</div><a href="?a=1&b=2&amp;c=3">q&a</a>`,
    // Text and values running to the end of the page, with no closing quote or tag.
    `<p>unfinished text &amp more`,
    `<p class="never closed`,
    `<p class='single & unterminated`,
    // Scripts, styles, comments and <title> (whose entities are decoded): the indexOf scan.
    `<head><title>A &amp; B</title><style>p{content:"<"}</style><script>if (a<b && c) {}</script>
     <script type="application/ld+json">{"headline":"x < y"}</script></head><!-- a -- comment --><p>after</p>`,
    `<script>never closed < <`,
    `<!-- never closed comment <p>x</p>`,
    `<![CDATA[ x ]]><p>${"long text ".repeat(5000)}</p><img alt="${"v".repeat(10_000)}">`,
    `<p>\u00e9t\u00e9 — “quotes” <b>&#x1F600;</b> &unknown; &amp</p>`,
  ];
  it.each(pages.map((p, i) => [i, p]))("page %i", (_, html) => {
    expect(shape(parseHtml(html))).toEqual(shape(parseDocument(html)));
  });
});

describe("parseHtml keeps only the text extraction reads, up to maxTextChars", () => {
  /** Each <script> and <style> with the text kept in it, in document order. */
  const scriptText = (node: AnyNode): string[] => {
    if (!("children" in node)) return [];
    const own =
      node.type === "script" || node.type === "style"
        ? [`${(node as Element).name}:${node.children.map((c) => (c as Text).data).join("")}`]
        : [];
    return [...own, ...node.children.flatMap(scriptText)];
  };

  it("keeps JSON-LD, and no text of other scripts or of styles, whatever their size", () => {
    const state = `window.__STATE__ = ${JSON.stringify({ blob: "x".repeat(3_000_000) })};`;
    const doc = parseHtml(
      `<html><head><script type="application/ld+json">{"headline":"H"}</script><style>p{color:red}</style>` +
        `<script>${state}</script><script type="APPLICATION/LD+JSON">[1]</script></head><body><p>Story &amp; text</p></body></html>`,
    );
    expect(scriptText(doc)).toEqual(['script:{"headline":"H"}', "style:", "script:", "script:[1]"]);
    expect(rawText(body(doc))).toBe("Story & text");
  });

  it("keeps at most maxNodeTextChars in one text node: a megabyte title leaves the article its text", () => {
    const max = PARSE_LIMITS.maxNodeTextChars;
    const doc = parseHtml(
      `<html><head><title>${"t".repeat(1_000_000)}</title></head><body>` +
        `<h1>${"h".repeat(max - 2)}&amp;&amp;&amp;h</h1><p>The story.</p></body></html>`,
    );
    const title = [...elementsInOrder(doc)].find((e) => e.name === "title")!;
    expect(rawText(title)).toHaveLength(max);
    const h1 = [...elementsInOrder(doc)].find((e) => e.name === "h1")!;
    expect(rawText(h1)).toBe(`${"h".repeat(max - 2)}&&`); // entities count as they are kept
    expect(rawText(body(doc)).endsWith("The story.")).toBe(true);
  });

  it("keeps the page's first maxTextChars characters of text, and the elements after", () => {
    const { maxTextChars, maxNodeTextChars } = PARSE_LIMITS;
    const para = `<p>${"a".repeat(maxNodeTextChars)}</p>`;
    const n = Math.ceil(maxTextChars / maxNodeTextChars) + 2;
    const doc = parseHtml(
      `<html><body>${para.repeat(n)}<p id="late">late</p>` +
        `<script type="application/ld+json">{"kept":true}</script></body></html>`,
    );
    expect(rawText(body(doc))).toHaveLength(maxTextChars);
    // Past the budget the tree goes on being built; only text is dropped, and JSON-LD is not counted.
    expect([...elementsInOrder(doc)].some((e) => e.attribs.id === "late")).toBe(true);
    expect(scriptText(doc)).toEqual(['script:{"kept":true}']);
  });
});

describe("rawText", () => {
  it("walks a tree 200,000 levels deep without recursion", () => {
    expect(rawText(deepChain(200_000, new Text("bottom")))).toBe("bottom");
  });
});

describe("textOf and elementsInOrder", () => {
  const doc = parseHtml(
    `<div id="r"><p>One <b>two</b></p><script>no</script><span class="x">skip <i>me</i></span><p>three</p></div>`,
  );
  const root = [...elementsInOrder(doc)].find((e) => e.attribs.id === "r")!;

  it("reads text through tags, never scripts, with skipped elements, separators and a cap", () => {
    expect(textOf(root)).toBe("One twoskip methree");
    expect(textOf(root, { skip: (e) => e.attribs.class === "x" })).toBe("One twothree");
    expect(textOf(root, { after: " " })).toBe("One two  skip me  three  ");
    expect(textOf(root, { limit: 3 })).toBe("One ");
  });

  it("walks elements in document order, not below those it is told to skip", () => {
    expect([...elementsInOrder(root)].map((e) => e.name)).toEqual(["p", "b", "span", "i", "p"]);
    expect([...elementsInOrder(root, (e) => e.name === "span")].map((e) => e.name)).toEqual([
      "p",
      "b",
      "span",
      "p",
    ]);
  });
});
