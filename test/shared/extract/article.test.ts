import { describe, expect, it } from "vitest";
import { EXTRACTOR_VERSION, ExtractionError, extractArticle, isThin } from "../../../shared/extract/article";
import { FIELD_CAPS } from "../../../shared/extract/field-caps";
import { countWords } from "../../../shared/extract/text";
import { extractionSchema } from "../../../shared/records";

const NOW = new Date("2026-06-01T12:00:00Z");
const URL = "https://news.example/world/2026/05/31/story";
const para = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the story tells readers what happened, where, and why it matters to them.</p>`,
  ).join("\n");
const page = (head: string, body: string, htmlAttrs = ""): string =>
  `<!doctype html><html ${htmlAttrs}><head>${head}</head><body>${body}</body></html>`;
const run = (html: string, extra: Partial<Parameters<typeof extractArticle>[0]> = {}) =>
  extractArticle({ html, url: URL, now: NOW, ...extra });

describe("extractArticle robustness", () => {
  it("never throws and returns a valid record on empty and odd input", () => {
    for (const html of [
      "",
      "   ",
      "<",
      "<html>",
      "<title></title>",
      "\u0000\u0001",
      "<script>{",
      "x".repeat(1000),
    ]) {
      const r = run(html);
      expect(extractionSchema.safeParse(r).success).toBe(true);
    }
    expect(run("").date_flag).toBe("missing");
  });

  it("handles a page without <title> and with JSON-LD @type lists and broken blocks", () => {
    const html = page(
      `<script type="application/ld+json">{"@type":["NewsArticle","Article"],"headline":"Typed twice","datePublished":"2026-05-31T10:00:00+02:00"}</script>
       <script type="application/ld+json">{ "@type": "NewsArticle", </script>`,
      `<article>${para(4)}</article>`,
    );
    const r = run(html);
    expect(r.headline).toBe("Typed twice");
    expect(r.published_at).toBe("2026-05-31T08:00:00Z");
    expect(r.published_at_source).toBe("jsonld");
  });

  it("exports a version string", () => {
    expect(EXTRACTOR_VERSION).toMatch(/^\d{4}\.\d+\.\d+$/);
  });
});

describe("dates", () => {
  it("flags a date without a timezone but keeps the stated day", () => {
    const r = run(page(`<meta property="article:published_time" content="2026-05-30T23:30:00">`, para(3)));
    expect(r).toMatchObject({ published_at: null, published_day: "2026-05-30", date_flag: "no_timezone" });
  });

  it("flags a future date instead of using it", () => {
    const r = run(page(`<meta property="article:published_time" content="2026-07-01T10:00:00Z">`, para(3)));
    expect(r).toMatchObject({ published_at: null, published_day: "2026-07-01", date_flag: "future" });
  });

  it("gives the publisher's local day when JSON-LD states UTC and a meta tag states local time", () => {
    const r = run(
      page(
        `<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2023-11-09T01:09:55Z"}</script>
         <meta property="article:published_time" content="2023-11-08T18:09:55-07:00">`,
        para(3),
      ),
    );
    expect(r.published_at).toBe("2023-11-09T01:09:55Z");
    expect(r.published_day).toBe("2023-11-08");
  });

  it("keeps modified apart from published", () => {
    const r = run(
      page(
        `<meta property="article:published_time" content="2026-05-01T08:00:00Z">
         <meta property="article:modified_time" content="2026-05-02T09:00:00Z">`,
        para(3),
      ),
    );
    expect(r.published_at).toBe("2026-05-01T08:00:00Z");
    expect(r.modified_at).toBe("2026-05-02T09:00:00Z");
  });

  it("falls back to the URL, then marks missing", () => {
    expect(run(page("", para(3)))).toMatchObject({ published_day: "2026-05-31", published_at_source: "url" });
    const none = extractArticle({ html: page("", para(3)), url: "https://news.example/a", now: NOW });
    expect(none).toMatchObject({ published_day: null, date_flag: "missing", published_at_source: null });
  });
});

describe("metadata", () => {
  it("flags paywalled pages and never substitutes the hidden JSON-LD body", () => {
    const hidden = "Secret paragraph. ".repeat(200);
    const r = run(
      page(
        `<script type="application/ld+json">{"@type":"NewsArticle","isAccessibleForFree":false,"articleBody":"${hidden}"}</script>`,
        "<article><p>Only the teaser is visible to readers who do not subscribe.</p></article>",
      ),
    );
    expect(r.is_accessible_for_free).toBe(false);
    expect(r.body).not.toContain("Secret");
  });

  it("resolves canonical links against the page URL", () => {
    const r = run(page(`<link rel="canonical" href="/world/story">`, para(2)));
    expect(r.canonical_from_page).toBe("https://news.example/world/story");
    expect(
      run(page(`<link rel="canonical" href="javascript:void(0)">`, para(2))).canonical_from_page,
    ).toBeNull();
  });

  it("takes the language from <html lang>, og:locale, the header, or the text", () => {
    expect(run(page("", para(2), 'lang="de-AT"'))).toMatchObject({
      language: "de",
      language_source: "html_lang",
    });
    expect(run(page('<meta property="og:locale" content="fr_FR">', para(2)))).toMatchObject({
      language: "fr",
      language_source: "og_locale",
    });
    expect(run(page("", para(2)), { headers: { "content-language": "nl" } })).toMatchObject({
      language: "nl",
      language_source: "http_header",
    });
    const german =
      "<article><p>Die Stadtverwaltung hat am Montag mitgeteilt, dass die neue Bibliothek im Herbst eröffnet wird und dann deutlich länger geöffnet ist als das alte Gebäude.</p></article>";
    expect(run(page("", german))).toMatchObject({ language: "de", language_source: "detected" });
  });

  it("reads authors and publisher from JSON-LD in their various shapes", () => {
    const r = run(
      page(
        `<script type="application/ld+json">{"@type":"NewsArticle","author":[{"@type":"Person","name":"A. Writer"},"B. Writer"],"publisher":[{"@type":"Organization","name":"News Example"}]}</script>`,
        para(3),
      ),
    );
    expect(r.authors).toEqual(["A. Writer", "B. Writer"]);
    expect(r.publication).toBe("News Example");
  });

  it("splits joined author names", () => {
    const r = run(page(`<meta name="author" content="Ana Lima and Ben Okafor, dpa">`, para(3)));
    // The agency is a credit, not a person (record version 5).
    expect([r.authors, r.credit]).toEqual([["Ana Lima", "Ben Okafor"], ["dpa"]]);
  });
});

describe("isThin", () => {
  it("is true for a teaser and false for an article", () => {
    expect(isThin(run(page("", "<p>Short teaser.</p>")))).toBe(true);
    expect(isThin(run(page("", `<article>${para(8)}</article>`)))).toBe(false);
  });
});

describe("extractArticle on hostile pages", () => {
  const words = (n: number, w = "word") => Array.from({ length: n }, (_, i) => `${w}${i}`).join(" ");
  const article = `<article><h1>A plain headline</h1><p>${words(420)}.</p></article>`;

  it("reads a 420-word article followed by 5,000 nested <div>s (was: stack overflow, empty record)", () => {
    const r = run(page("", `${article}${"<div>".repeat(5000)}x${"</div>".repeat(5000)}`));
    expect(r.word_count).toBeGreaterThanOrEqual(420);
    expect(r.headline).toBe("A plain headline");
  });

  it("reads the page beside JSON-LD nested in 100,000 arrays", () => {
    const deep = `${"[".repeat(100_000)}"x"${"]".repeat(100_000)}`;
    const ld = `<script type="application/ld+json">{"@type":"NewsArticle","headline":${deep},"author":${deep}}</script>`;
    const r = run(page(ld, article));
    expect(r.word_count).toBeGreaterThanOrEqual(420);
    expect(r.headline).toBe("A plain headline");
  });

  it("cuts a 1 MB headline to 1,000 characters and says so", () => {
    const huge = "Headline ".repeat(120_000);
    const r = run(
      page(
        `<title>${huge}</title><meta property="og:title" content="${huge}">`,
        `<h1>${huge}</h1>${article}`,
      ),
    );
    expect(r.headline?.length).toBe(FIELD_CAPS.headlineChars);
    expect(r.truncated).toContain("headline");
    expect(extractionSchema.safeParse(r).success).toBe(true);
  });

  it("cuts a 600 KB body to the byte cap at a paragraph or word, and counts the words kept", () => {
    const paras = Array.from({ length: 100 }, (_, i) => `<p>${words(1000, `p${i}w`)} ünïcödé.</p>`).join("");
    const r = run(page("", `<article><h1>Long read</h1>${paras}</article>`));
    expect(Buffer.byteLength(r.body)).toBeLessThanOrEqual(FIELD_CAPS.bodyBytes);
    expect(Buffer.byteLength(r.body)).toBeGreaterThan(0.9 * FIELD_CAPS.bodyBytes);
    expect(r.body).not.toMatch(/\s$/);
    expect(r.truncated).toEqual(["body"]);
    expect(r.word_count).toBe(countWords(r.body));
  });

  it("keeps at most 20 authors and ignores a canonical URL too long to be one", () => {
    const authors = Array.from(
      { length: 500 },
      // Name-shaped (letters only): the author rules turn away digits and handles.
      (_, i) =>
        `<meta name="author" content="Writer ${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}son">`,
    ).join("");
    const canonical = `<link rel="canonical" href="https://news.example/${"a".repeat(1_000_000)}">`;
    const r = run(page(authors + canonical, article));
    expect(r.authors).toHaveLength(FIELD_CAPS.authors);
    expect(r.truncated).toContain("authors");
    expect(r.canonical_from_page).toBeNull();
  });

  it("leaves an ordinary page's record without a truncated field", () => {
    expect(run(page("", article))).not.toHaveProperty("truncated");
  });

  it("throws ExtractionError naming the cause when the extractor itself fails (never an empty record)", () => {
    const input = {
      url: URL,
      get html(): string {
        throw new RangeError("Maximum call stack size exceeded");
      },
    };
    expect(() => extractArticle(input)).toThrow(ExtractionError);
    expect(() => extractArticle(input)).toThrow(
      "extractor failed: RangeError: Maximum call stack size exceeded",
    );
  });
});

describe("entities", () => {
  // The parser decodes text and attribute values once; a page that escapes twice shows the escape.
  it("keeps body text that shows an escaped tag", () => {
    const r = run(
      page(
        "",
        `<article><h1>Markup</h1>${para(4)}<p>Write &amp;lt;b&amp;gt; to make text bold in the old editor, then save the page.</p></article>`,
      ),
    );
    expect(r.body).toContain("Write &lt;b&gt; to make text bold");
  });

  it("keeps a headline that shows an escaped ampersand", () => {
    const headline = "AT&amp;amp;T buys a regional network operator";
    const r = run(
      page(
        `<title>${headline}</title><meta property="og:title" content="${headline}">`,
        `<article><h1>${headline}</h1>${para(4)}</article>`,
      ),
    );
    expect(r.headline).toBe("AT&amp;T buys a regional network operator");
  });

  it("takes the plain wording over meta tags escaped twice", () => {
    const twice = "Australian &amp;#039;megablaze&amp;#039; brought under control";
    const r = run(
      page(
        `<title>Australian &#039;megablaze&#039; brought under control</title><meta property="og:title" content="${twice}"><meta name="twitter:title" content="${twice}">`,
        `<article>${para(4)}</article>`,
      ),
    );
    expect(r.headline).toBe("Australian 'megablaze' brought under control");
  });

  it("keeps an author meta that shows an escaped ampersand as one name", () => {
    const r = run(
      page(
        `<meta name="author" content="Tom &amp;amp; Jerry">`,
        `<article><h1>Cartoon</h1>${para(4)}</article>`,
      ),
    );
    expect(r.authors).toEqual(["Tom &amp; Jerry"]);
  });

  it("strips escaped markup from a JSON-LD articleBody (decoded first, then stripped)", () => {
    const p =
      "A sentence of the article that the page renders with a script, long enough to count as prose here.";
    const ld = JSON.stringify({
      "@type": "NewsArticle",
      articleBody: `&lt;p class="texto"&gt;${p.repeat(8)}&lt;/p&gt;`,
    });
    const r = run(page(`<script type="application/ld+json">${ld}</script>`, "<div id=app></div>"));
    expect(r.body.startsWith("A sentence of the article")).toBe(true);
    expect(r.body).not.toContain("<p");
  });

  it("decodes entities in JSON-LD strings, which the parser leaves as written", () => {
    const ld = `{"@type":"NewsArticle","headline":"Q&amp;A: what the council decided","author":{"@type":"Person","name":"Ren&eacute;e Dupont"}}`;
    const r = run(page(`<script type="application/ld+json">${ld}</script>`, `<article>${para(4)}</article>`));
    expect(r.headline).toBe("Q&A: what the council decided");
    expect(r.authors).toEqual(["Renée Dupont"]);
  });
});
