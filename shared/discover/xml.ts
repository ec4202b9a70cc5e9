/**
 * The XML parser for sitemaps and feeds: fast-xml-parser on text we fetched ourselves (so the byte limit
 * already applies), with DTD entity expansion bounded tightly (billion laughs) and nesting depth capped.
 */
import { XMLParser } from "fast-xml-parser";

export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "XmlError";
  }
}

/** Elements that may repeat; always arrays so callers need no shape checks. */
const REPEATED = new Set(["url", "sitemap", "item", "entry", "link", "category", "author"]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  // news:title, n:title, dc:date … all read the same whatever prefix a publisher bound the namespace to.
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: true,
  processEntities: {
    enabled: true,
    maxEntityCount: 32,
    maxEntitySize: 1024,
    maxExpansionDepth: 2,
    maxTotalExpansions: 10_000,
    maxExpandedLength: 200_000,
  },
  maxNestedTags: 64,
  isArray: (name) => REPEATED.has(name),
});

export type XmlNode = Record<string, unknown>;

export function parseXml(text: string): XmlNode {
  let doc: unknown;
  try {
    doc = parser.parse(text);
  } catch (err) {
    throw new XmlError(err instanceof Error ? err.message : String(err));
  }
  if (!doc || typeof doc !== "object") throw new XmlError("empty document");
  return doc as XmlNode;
}

/** Text content of a parsed node (string, {#text}, or the first of an array). */
export function textOf(node: unknown): string | null {
  if (node === null || node === undefined) return null;
  if (Array.isArray(node)) {
    for (const n of node) {
      const t = textOf(n);
      if (t) return t;
    }
    return null;
  }
  if (typeof node === "string") return node.trim() || null;
  if (typeof node === "number" || typeof node === "boolean") return String(node);
  if (typeof node === "object") return textOf((node as XmlNode)["#text"]);
  return null;
}

export function asArray(node: unknown): unknown[] {
  if (node === null || node === undefined) return [];
  return Array.isArray(node) ? node : [node];
}

export function child(node: unknown, name: string): unknown {
  return node && typeof node === "object" && !Array.isArray(node) ? (node as XmlNode)[name] : undefined;
}

export function attr(node: unknown, name: string): string | null {
  const v = child(node, `@_${name}`);
  return typeof v === "string" ? v.trim() || null : null;
}
