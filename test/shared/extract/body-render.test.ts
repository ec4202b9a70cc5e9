import { describe, expect, it } from "vitest";
import { extractBody } from "../../../shared/extract/body";
import { parseHtml } from "../../../shared/extract/dom";

const prose = (topic: string, n = 3): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${topic} paragraph ${i + 1}: the council met on Tuesday, heard from residents, and agreed to publish the full report next month.</p>`,
  ).join("");
const body = (html: string): string =>
  extractBody(parseHtml(`<html><body>${html}</body></html>`), { headline: null }).text;

describe("BodyRenderer: blocks inside the container", () => {
  it("leaves out an image's caption written as a plain block beside it (no caption class)", () => {
    const text = body(
      `<article>${prose("One", 2)}<div class="w-full"><img src="a.jpg" alt=""><div class="ml-3">The head teacher met only 14 of 75 pupils on Monday © School archive</div></div>${prose("Two", 2)}</article>`,
    );
    expect(text).toContain("Two paragraph 2");
    expect(text).not.toContain("head teacher");
  });

  it("keeps a block of prose that has an image beside it", () => {
    const text = body(
      `<article>${prose("One", 2)}<div><img src="a.jpg" alt=""><p>The head teacher met only 14 of 75 pupils on Monday, and said the week would be quiet.</p></div>${prose("Two", 2)}</article>`,
    );
    expect(text).toContain("head teacher");
  });
});
