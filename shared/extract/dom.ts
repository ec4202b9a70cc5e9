/**
 * The parsed page: htmlparser2, the parser cheerio's `cheerio/slim` uses, called directly (the same
 * Document as `load(html).root()`, without building a cheerio instance per page), walked over
 * domhandler nodes. Walking nodes by hand instead of CSS selectors keeps extraction within a few
 * milliseconds per page, and the Lambda bundle free of cheerio's selector engine.
 */
import type { AnyNode, Document, Element } from "domhandler";
import { parseDocument } from "htmlparser2";

export type { AnyNode, Element };

export function parseHtml(html: string): Document {
  return parseDocument(html);
}

/** Elements proper: htmlparser2 gives <script> and <style> their own node types. */
export function isElement(node: AnyNode): node is Element {
  return node.type === "tag" || node.type === "script" || node.type === "style";
}

export function attr(el: Element, name: string): string | undefined {
  return el.attribs[name];
}

/** Concatenated text below a node (raw, not whitespace-normalised). */
export function rawText(node: AnyNode): string {
  if (node.type === "text") return (node as unknown as { data: string }).data;
  if (!("children" in node)) return "";
  let out = "";
  for (const child of node.children) {
    if (child.type === "text") out += (child as unknown as { data: string }).data;
    else if (child.type === "tag") out += rawText(child);
  }
  return out;
}
