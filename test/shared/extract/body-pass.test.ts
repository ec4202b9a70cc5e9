import { describe, expect, it } from "vitest";
import { extractBody } from "../../../shared/extract/body";
import { parseHtml } from "../../../shared/extract/dom";

const sentence = (topic: string, i: number): string =>
  `${topic} paragraph ${i}: the council met on Tuesday, heard from residents, and agreed to publish the full report next month.`;
const body = (html: string): string =>
  extractBody(parseHtml(`<html><body>${html}</body></html>`), { headline: null }).text;

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
});
