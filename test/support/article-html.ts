/** Small article pages for extraction tests: paragraphs of prose, and the body text extracted from a fragment. */
import { extractBody } from "../../shared/extract/body";
import { parseHtml } from "../../shared/extract/dom";

/** One paragraph of plain running text, long enough to read as prose on the page. */
export const PROSE_PARAGRAPH =
  "This paragraph is body text of the article, long enough to read as prose on the page. ".repeat(4);

/** One numbered sentence of a paragraph about `topic`. */
export const proseSentence = (topic: string, i: number): string =>
  `${topic} paragraph ${i}: the council met on Tuesday, heard from residents, and agreed to publish the full report next month.`;

/** `n` numbered paragraphs about `topic`. */
export const prose = (topic: string, n = 3): string =>
  Array.from({ length: n }, (_, i) => `<p>${proseSentence(topic, i + 1)}</p>`).join("");

/** The body text extracted from an HTML fragment placed in <body>. */
export const bodyText = (html: string, headline: string | null = null): string =>
  extractBody(parseHtml(`<html><body>${html}</body></html>`), { headline }).text;
