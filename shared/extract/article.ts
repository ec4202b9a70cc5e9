/**
 * The extractor's entry point: one HTML page in, one Extraction record out. Pure (html, url, headers, now).
 * Bad HTML is not an error: whatever cannot be read is null, flagged or empty, and every field is capped
 * (field-caps.ts). A failure of the extractor itself is: it throws ExtractionError, which the crawl
 * records as `extraction_error` (never as thin content).
 */
import type { Extraction } from "../records";
import { extractAuthors } from "./authors";
import { extractBody } from "./body";
import { readsDayFirst } from "./date-order";
import { extractDates } from "./dates";
import { declaredHeadline } from "./declared-headline";
import { parseHtml } from "./dom";
import { capFields } from "./field-caps";
import { chooseHeadline, headlineInput } from "./headline";
import { kickerOf } from "./kicker";
import { detectLanguage } from "./language";
import { countryZones, pageCountry } from "./page-country";
import { metaValue, type PageSignals, SignalCollector } from "./page-signals";
import { surveyPage } from "./page-survey";
import { boolOf, type JsonObject, names, readStructuredData, str } from "./structured-data";
import { cleanInline, cleanParagraphs, countWords, stripTags } from "./text";

/** Bump when output for the same input changes. */
export const EXTRACTOR_VERSION = "2026.12.10";

export interface ExtractInput {
  html: string;
  url: string;
  headers?: Record<string, string>;
  now?: Date;
  languageHint?: string | null;
  /** The publication date a feed or sitemap gave for the URL: evidence for reading the page's own dates. */
  publishedHint?: string | null;
  /** The source's IANA time zone ("America/New_York"), when configured: the day of published_at there is
   * published_day. Without it the day is the one the page states. */
  timeZone?: string | null;
}

/** Fewer words than this is not an article body (teaser, consent wall, error page). */
const THIN_WORDS = 50;

export function isThin(extraction: Extraction): boolean {
  return extraction.word_count < THIN_WORDS;
}

function header(headers: Record<string, string> | undefined, name: string): string | null {
  if (!headers) return null;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return null;
}

function absoluteUrl(href: string | null, base: string): string | null {
  if (!href) return null;
  try {
    const u = new URL(href.trim(), base);
    return u.protocol === "http:" || u.protocol === "https:" ? u.toString() : null;
  } catch {
    return null;
  }
}

function emptyExtraction(): Extraction {
  return {
    canonical_from_page: null,
    headline: null,
    headline_declared: null,
    kicker: null,
    body: "",
    publication: null,
    section: null,
    authors: [],
    credit: [],
    published_at: null,
    published_day: null,
    published_at_source: null,
    published_at_structured: null,
    date_flag: "missing",
    date_order_flag: null,
    modified_at: null,
    language: null,
    language_source: null,
    is_accessible_for_free: null,
    word_count: 0,
  };
}

function accessibleForFree(article: JsonObject | null, s: PageSignals): boolean | null {
  if (article) {
    const direct = boolOf(article.isAccessibleForFree);
    if (direct !== null) return direct;
    const parts = Array.isArray(article.hasPart) ? article.hasPart : article.hasPart ? [article.hasPart] : [];
    for (const p of parts) {
      if (p && typeof p === "object") {
        const b = boolOf((p as JsonObject).isAccessibleForFree);
        if (b !== null) return b;
      }
    }
  }
  const meta = boolOf(metaValue(s, "itemprop:isaccessibleforfree", "isaccessibleforfree"));
  if (meta !== null) return meta;
  return null;
}

/** The extractor failed on a page (a bug, not the page's fault): the message names the cause. */
export class ExtractionError extends Error {
  constructor(cause: unknown) {
    const what = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(`extractor failed: ${what}`, { cause });
    this.name = "ExtractionError";
  }
}

export function extractArticle(input: ExtractInput): Extraction {
  try {
    return capFields(extract(input));
  } catch (err) {
    throw new ExtractionError(err);
  }
}

function extract(input: ExtractInput): Extraction {
  const now = input.now ?? new Date();
  const html = typeof input.html === "string" ? input.html : "";
  if (!html.trim()) return emptyExtraction();
  const doc = parseHtml(html);
  // One walk over the page for the signals and the body survey.
  const collector = new SignalCollector();
  const survey = surveyPage(doc, collector);
  const signals = collector.signals;
  const { article, page, all } = readStructuredData(signals.jsonLd, input.url);

  const publisherNames = article ? names(article.publisher) : [];
  const siteName = metaValue(signals, "og:site_name", "application-name") ?? publisherNames[0] ?? null;
  const headlineCandidates = headlineInput(signals, article, siteName, input.url);
  const headline = chooseHeadline(headlineCandidates);
  const headlineDeclared = declaredHeadline(headlineCandidates, headline);

  const variants = [
    str(article?.headline),
    metaValue(signals, "og:title"),
    metaValue(signals, "twitter:title"),
  ];
  const bodyResult = extractBody(
    doc,
    {
      headline,
      headlineVariants: variants.filter((v): v is string => typeof v === "string"),
    },
    survey,
  );
  // The body extractor already cleans each paragraph.
  let body = bodyResult.text;
  const free = accessibleForFree(article, signals);
  const ldBody =
    typeof article?.articleBody === "string" ? cleanParagraphs(stripTags(article.articleBody)) : "";
  // The JSON-LD body stands in when the page's visible text is much shorter (a script-rendered page), unless
  // the page declares itself paywalled: then only what it shows is taken.
  let words = countWords(body);
  if (ldBody && free !== false) {
    const ldWords = countWords(ldBody);
    if (ldWords > Math.max(80, 1.6 * words)) {
      body = ldBody;
      words = ldWords;
    }
  }

  const locale = {
    htmlLang: signals.htmlLang,
    ogLocale: metaValue(signals, "og:locale"),
    languageHint: input.languageHint,
    url: input.url,
  };
  const dates = extractDates({
    signals,
    article,
    page,
    url: input.url,
    root: doc,
    container: bodyResult.container,
    now,
    html,
    dayFirst: readsDayFirst(locale),
    // Looked up only for a UTC-stated date the page shows on another day (an Intl.Locale per page cost 4 %).
    zones: () => countryZones(pageCountry(locale)),
    headline,
    publishedHint: input.publishedHint ?? null,
    timeZone: input.timeZone ?? null,
  });

  const lang = detectLanguage({
    htmlLang: signals.htmlLang,
    jsonLdLanguage: str(article?.inLanguage) ?? null,
    ogLocale: metaValue(signals, "og:locale"),
    metaLanguage: metaValue(signals, "content-language", "language", "dc.language", "itemprop:inlanguage"),
    headerLanguage: header(input.headers, "content-language"),
    body,
    hint: input.languageHint ?? null,
  });

  const section =
    str(article?.articleSection) ??
    metaValue(signals, "article:section", "parsely-section", "itemprop:articlesection", "section") ??
    null;

  const byline = extractAuthors({
    article,
    all,
    signals,
    siteNames: [siteName ?? "", ...publisherNames],
    url: input.url,
    headline,
  });

  return {
    canonical_from_page: absoluteUrl(
      signals.canonicalLink ?? metaValue(signals, "og:url") ?? str(article?.url) ?? null,
      input.url,
    ),
    headline,
    headline_declared: headlineDeclared,
    kicker: kickerOf(headline, headlineCandidates, headlineDeclared),
    body,
    publication: siteName ? cleanInline(siteName) : null,
    section: section ? cleanInline(section) : null,
    authors: byline.authors,
    credit: byline.credit,
    ...dates,
    language: lang.language,
    language_source: lang.source,
    is_accessible_for_free: free,
    word_count: words,
  };
}
