import { describe, expect, it } from "vitest";
import { extractArticle } from "../../../shared/extract/article";
import { declaredHeadline } from "../../../shared/extract/declared-headline";

const base = { jsonLd: null, og: null, twitter: null, h1: [], title: null, siteName: null };

describe("declaredHeadline", () => {
  it("takes JSON-LD, then og:title, then twitter:title, null when the page declares none", () => {
    expect(
      declaredHeadline({ ...base, jsonLd: "From JSON-LD", og: "From og", twitter: "From twitter" }, null),
    ).toBe("From JSON-LD");
    expect(declaredHeadline({ ...base, og: "From og", twitter: "From twitter" }, null)).toBe("From og");
    expect(declaredHeadline({ ...base, twitter: "From twitter" }, null)).toBe("From twitter");
    expect(declaredHeadline({ ...base, h1: ["Only shown"], title: "Only a title" }, "Only shown")).toBeNull();
  });

  it("cuts a site name but keeps a declared kicker and the declared characters", () => {
    const input = {
      ...base,
      og: "Port strike: Dock workers end 'nine-day' walkout | The Courier",
      siteName: "The Courier",
      h1: ["Dock workers end ‘nine-day’ walkout"],
    };
    expect(declaredHeadline(input, "Dock workers end ‘nine-day’ walkout")).toBe(
      "Port strike: Dock workers end 'nine-day' walkout",
    );
  });

  it("takes the declared headline nearer the shown one when JSON-LD and og:title state two", () => {
    const input = {
      ...base,
      jsonLd: "Ten things to know about the port strike today",
      og: "Dock workers end nine-day walkout at three ports",
    };
    expect(declaredHeadline(input, "Dock workers end nine-day walkout at three ports")).toBe(input.og);
    expect(declaredHeadline(input, "Ten things to know about the port strike")).toBe(input.jsonLd);
    // The same words: the wording the page shows, else JSON-LD's.
    const same = { ...base, jsonLd: "Strike ends - ports reopen", og: "Strike ends: ports reopen" };
    expect(declaredHeadline(same, "Strike ends: ports reopen")).toBe(same.og);
    expect(declaredHeadline(same, "Strike ends – ports reopen")).toBe(same.jsonLd);
  });

  it("replaces a value cut short with an ellipsis by the full wording of the next source", () => {
    const input = {
      ...base,
      jsonLd: "Dock workers at three ports vote to end…",
      og: "Dock workers at three ports vote to end the strike",
    };
    expect(declaredHeadline(input, null)).toBe(input.og);
  });

  it("is on the extracted record beside the shown headline and the kicker", () => {
    const x = extractArticle({
      html: `<html><head><meta property="og:title" content="Port strike: Dock workers end nine-day walkout - Courier">
        <meta property="og:site_name" content="Courier"></head><body><article>
        <h1><span class="kicker">Port strike</span> Dock workers end nine-day walkout</h1><p>${"Words of the story. ".repeat(30)}</p></article></body></html>`,
      url: "https://courier.example/2026/05/31/strike",
      now: new Date("2026-06-01T00:00:00Z"),
    });
    expect([x.headline, x.headline_declared, x.kicker]).toEqual([
      "Dock workers end nine-day walkout",
      "Port strike: Dock workers end nine-day walkout",
      "Port strike",
    ]);
  });
});
