import { describe, expect, it } from "vitest";
import { names, parseJsonLd, readStructuredData, str } from "../../../shared/extract/structured-data";

describe("JSON-LD", () => {
  it("finds the article in @graph with an array @type and schema.org URLs as types", () => {
    const block = JSON.stringify({
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "WebSite", name: "Site" },
        { "@type": ["https://schema.org/NewsArticle", "ReportageNewsArticle"], headline: "H" },
      ],
    });
    expect(readStructuredData([block], "https://x.example/a").article?.headline).toBe("H");
  });

  it("prefers the article about this URL over related items", () => {
    const blocks = [
      JSON.stringify([
        { "@type": "NewsArticle", headline: "Other", url: "https://x.example/other" },
        { "@type": "LiveBlogPosting", headline: "Mine", url: "https://x.example/mine/" },
      ]),
    ];
    expect(readStructuredData(blocks, "https://x.example/mine").article?.headline).toBe("Mine");
  });

  it("decodes entities in strings once, also in repaired and salvaged blocks", () => {
    expect(parseJsonLd('{"headline":"Q&amp;A &#8217;24","n":{"name":["AT&amp;amp;T"]}}')).toEqual([
      { headline: "Q&A \u201924", n: { name: ["AT&amp;T"] } },
    ]);
    expect(parseJsonLd('{"headline":"Tom &amp; Jerry",}')).toEqual([{ headline: "Tom & Jerry" }]);
    expect(parseJsonLd('{"@type":"NewsArticle",,"headline":"Caf&eacute; reopens"')[0]).toMatchObject({
      headline: "Café reopens",
    });
  });

  it("survives broken blocks: raw newlines, trailing commas, garbage", () => {
    expect(parseJsonLd('{"@type":"NewsArticle","headline":"a\nb",}')).toHaveLength(1);
    expect(parseJsonLd("{ not json")).toEqual([]);
    const salvaged = parseJsonLd('{"@type":"NewsArticle",,"datePublished":"2026-01-02T03:04:05Z"');
    expect(salvaged[0]).toMatchObject({ datePublished: "2026-01-02T03:04:05Z" });
    expect(readStructuredData(["", "[]", "null", "42", "{"], "https://x.example/").article).toBeNull();
  });

  it("reads publisher and author as string, object or array", () => {
    expect(names("Courier")).toEqual(["Courier"]);
    expect(names({ "@type": "Organization", name: "Courier" })).toEqual(["Courier"]);
    expect(names([{ name: "A" }, "B", { givenName: "C", familyName: "D" }])).toEqual(["A", "B", "C D"]);
  });
});

describe("JSON-LD nested deep", () => {
  const deep = (n: number, inner: string) => `${"[".repeat(n)}${inner}${"]".repeat(n)}`;

  it("str and names read a value nested 5,000 arrays deep without recursion, and give up past 10,000 parts", () => {
    expect(str(JSON.parse(deep(5_000, '"Deep"')))).toBe("Deep");
    expect(names(JSON.parse(deep(5_000, '{"name":"A. Writer"}')))).toEqual(["A. Writer"]);
    expect(str(JSON.parse(deep(100_000, '"Deep"')))).toBeNull();
    expect(names(JSON.parse(deep(100_000, '{"name":"A. Writer"}')))).toEqual([]);
  });

  it("keeps only the first name of an array name, however deep", () => {
    expect(names({ name: [{ name: ["First", "Second"] }, "Third"] })).toEqual(["First"]);
    expect(names([{ name: "A" }, { givenName: "B", familyName: "C" }, "D"])).toEqual(["A", "B C", "D"]);
  });
});

describe("JSON-LD nested past any real block", () => {
  it("reads a block nested deeper than 64 levels field by field instead of parsing it", () => {
    const block = `{"@type":"NewsArticle","headline":"Kept","datePublished":"2026-05-01T10:00:00Z","x":${"[".repeat(1_000_000)}1${"]".repeat(1_000_000)}}`;
    expect(parseJsonLd(block)).toEqual([
      { "@type": "NewsArticle", headline: "Kept", datePublished: "2026-05-01T10:00:00Z" },
    ]);
  });

  it("parses a block nested 64 levels as JSON", () => {
    const block = `{"@type":"NewsArticle","headline":"H","x":${"[".repeat(62)}1${"]".repeat(62)}}`;
    expect(parseJsonLd(block)[0]).toHaveProperty("x");
  });
});
