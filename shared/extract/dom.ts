/**
 * The parsed page: cheerio's htmlparser2 backend (cheerio/slim), walked directly over domhandler nodes.
 * Walking nodes by hand instead of CSS selectors keeps extraction within a few milliseconds per page.
 */
import { load } from "cheerio/slim";
import type { AnyNode, Document, Element } from "domhandler";

export type { AnyNode, Element };

export function parseHtml(html: string): Document {
  const $ = load(html, { xml: false });
  const root = $.root()[0];
  return root as unknown as Document;
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
