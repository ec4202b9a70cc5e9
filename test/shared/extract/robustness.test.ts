import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractArticle } from "../../../shared/extract/article";
import { extractionSchema } from "../../../shared/records";

// Random tag soup built from the pieces real pages break on: unclosed tags, JSON-LD fragments, odd dates.
const fragment = fc.oneof(
  fc.constantFrom(
    "<html>",
    "</html>",
    "<head>",
    "<body>",
    "<article>",
    "</article>",
    "<div class='content'>",
    "</div>",
    "<p>",
    "</p>",
    "<h1>",
    "</h1>",
    "<title>",
    "</title>",
    "<nav>",
    "<aside class='related'>",
    "<time datetime='2026-13-45T99:99'>",
    '<meta property="article:published_time" content="not a date">',
    '<meta property="og:title" content="">',
    '<script type="application/ld+json">',
    "</script>",
    '{"@type":["NewsArticle",null,7],"author":[null,{"name":{}}],"publisher":[[]],"datePublished":{}}',
    '{"@graph":{"@graph":[{"@type":"LiveBlogPosting","headline":42}]}}',
    "{,,}",
    "<br>",
    "&amp;&nbsp;&#0;&#xFFFFFF;",
    "<!--",
    "-->",
  ),
  fc.string({ maxLength: 40 }),
);

describe("extractArticle on arbitrary markup", () => {
  it("never throws and always returns a valid record", () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 60 }), fc.webUrl(), (parts, url) => {
        const r = extractArticle({ html: parts.join(""), url, now: new Date("2026-06-01T00:00:00Z") });
        expect(extractionSchema.safeParse(r).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("accepts a URL that does not parse", () => {
    const r = extractArticle({ html: "<p>text</p>", url: "not a url" });
    expect(extractionSchema.safeParse(r).success).toBe(true);
  });
});
