import { describe, expect, it } from "vitest";
import {
  collectModified,
  collectPublished,
  type DateSources,
  fallbackDate,
} from "../../../shared/extract/date-candidates";
import { parseHtml } from "../../../shared/extract/dom";
import { collectSignals } from "../../../shared/extract/page-signals";
import { readStructuredData } from "../../../shared/extract/structured-data";

const NOW = new Date("2026-12-01T00:00:00Z");

function sources(head: string, body: string, url = "https://news.example.org/story"): DateSources {
  const html = `<html><head>${head}</head><body>${body}</body></html>`;
  const root = parseHtml(html);
  const signals = collectSignals(root);
  const { article, page } = readStructuredData(signals.jsonLd, url);
  return { signals, article, page, url, root, now: NOW, html };
}

const ld = (o: unknown): string => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;

describe("collectPublished", () => {
  it("lists the page's publication dates in order of trust, the generic Dublin Core date last and weak", () => {
    const found = collectPublished(
      sources(
        `${ld({ "@type": "NewsArticle", datePublished: "2024-05-01T08:00:00Z" })}` +
          `<meta property="article:published_time" content="2024-05-02T08:00:00Z">` +
          `<meta name="dc.date" content="2024-05-04">`,
        `<div><time class="published" datetime="2024-05-03T08:00:00Z">3 May</time></div>`,
      ),
    );
    expect(found.map((c) => [c.source, c.date.day, c.weak === true])).toEqual([
      ["jsonld", "2024-05-01", false],
      ["meta", "2024-05-02", false],
      ["time", "2024-05-03", false],
      ["meta", "2024-05-04", true],
    ]);
  });

  it("skips a self-named publication key whose value a modification key repeats (the last save)", () => {
    const found = collectPublished(
      sources(
        `<meta name="cms:publicationDate" content="2020-09-08T17:33:18+02:00">` +
          `<meta name="cms:modificationDate" content="2020-09-08T17:33:18+02:00">`,
        "",
      ),
    );
    expect(found).toEqual([]);
  });
});

describe("fallbackDate", () => {
  it("takes embedded state JSON before the URL, the URL before the visible text", () => {
    const url = "https://news.example.org/2019/10/19/story";
    const embedded = fallbackDate(
      sources("", `<script>window.s={"publishedDate":"2016-11-04T20:37:27Z"}</script>`, url),
    );
    expect(embedded).toMatchObject({ source: "meta", date: { day: "2016-11-04" } });
    expect(fallbackDate(sources("", "<p>Posted 4 April 2020</p>", url))).toMatchObject({
      source: "url",
      date: { day: "2019-10-19" },
    });
    expect(fallbackDate(sources("", "<p>Posted 4 April 2020</p>"))).toMatchObject({
      source: "text",
      date: { day: "2020-04-04" },
    });
    expect(fallbackDate(sources("", "<p>No date here.</p>"))).toBeUndefined();
  });
});

describe("collectModified", () => {
  it("reads the first modification field that states an instant", () => {
    const modified = collectModified(
      sources(
        `<meta property="article:modified_time" content="2024-05-02">` +
          `<meta property="og:updated_time" content="2024-05-03T09:00:00Z">`,
        "",
      ),
    );
    expect(modified?.instant).toBe("2024-05-03T09:00:00Z");
  });

  it("reads a <time> marked as the update when no field states one, never a list item's", () => {
    const byline =
      `<article><p>Jo Reed — <time datetime="2024-05-01T08:00:00Z">1 May</time>` +
      ` · Updated <time class="updated" datetime="2024-05-02T10:30:00Z">2 May</time></p></article>`;
    expect(collectModified(sources("", byline))?.instant).toBe("2024-05-02T10:30:00Z");
    // A field wins over the byline's <time>.
    const meta = `<meta property="article:modified_time" content="2024-05-03T09:00:00Z">`;
    expect(collectModified(sources(meta, byline))?.instant).toBe("2024-05-03T09:00:00Z");
    // Comments' edit times are items of a list, not the article's.
    const comment = (day: number) =>
      `<li><p class="meta">Sam, edited <time class="updated" datetime="2024-05-0${day}T10:00:00Z">${day} May</time></p></li>`;
    const comments = `<ul class="comments">${comment(4)}${comment(5)}</ul>`;
    expect(collectModified(sources("", `<article><p>Text.</p></article>${comments}`))).toBeNull();
  });
});
