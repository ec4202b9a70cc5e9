import { describe, expect, it } from "vitest";
import { parseHtml } from "../../../shared/extract/dom";
import { collectSignals, SignalCollector } from "../../../shared/extract/page-signals";
import { surveyPage } from "../../../shared/extract/page-survey";

const PAGE = `<!doctype html><html lang="de-DE"><head><title>The title</title>
<meta name="author description" content="A. Writer"><meta property="og:title" content="OG"><meta itemprop="datePublished" content="2026-01-02">
<meta http-equiv="content-language" content="de"><meta name="nocontent">
<link rel="alternate canonical" href="https://example.com/a"><link rel="canonical" href="https://example.com/b">
<script type="application/ld+json">{"@type":"NewsArticle"}</script><style>h1{}</style></head>
<body itemscope itemtype="https://schema.org/NewsArticle"><svg><title>Icon</title><g itemprop="x"></g></svg>
<h1 itemprop="headline">Head <span itemprop="name">line</span></h1><time datetime="2026-01-02">2 Jan</time>
<article><p itemprop="author">By <b>Someone</b></p><script type="application/LD+JSON">{"a":1}</script></article></body></html>`;

describe("SignalCollector in the body survey", () => {
  it("collects the same signals as collectSignals' own walk", () => {
    const doc = parseHtml(PAGE);
    const collector = new SignalCollector();
    surveyPage(doc, collector);
    const alone = collectSignals(doc);
    expect(collector.signals).toEqual(alone);
    expect(alone.title).toBe("The title");
    expect(alone.jsonLd).toHaveLength(2);
    expect(alone.canonicalLink).toBe("https://example.com/a");
    expect(alone.meta.get("author")).toEqual(["A. Writer"]);
    expect(alone.itemprops.map((e) => e.attribs.itemprop)).toEqual(["x", "headline", "name", "author"]);
  });
});
