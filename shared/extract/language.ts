/**
 * Page language as an ISO 639-1 code (or the primary subtag the page states), with where it came from:
 * <html lang>, JSON-LD inLanguage, og:locale, Content-Language (meta or header), else the source's configured
 * language, else detected from the body (franc's trigram models, scripts/language-data.ts).
 */

import type { LanguageSource } from "../records";
import { detectText } from "./language-detect";

/** "en-US", "de_DE", "EN" → "en"; null when it does not look like a language tag. */
export function primaryLanguage(tag: string | null | undefined): string | null {
  if (!tag) return null;
  const first = tag.split(",")[0]?.trim() ?? "";
  const m = /^([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*$/i.exec(first);
  if (!m?.[1]) return null;
  const lang = m[1].toLowerCase();
  if (lang === "xx" || lang === "und" || lang === "mul" || lang === "zxx") return null;
  return lang;
}

export interface LanguageInput {
  htmlLang: string | null;
  jsonLdLanguage: string | null;
  ogLocale: string | null;
  metaLanguage: string | null;
  headerLanguage: string | null;
  body: string;
  hint: string | null;
}

export function detectLanguage(input: LanguageInput): {
  language: string | null;
  source: LanguageSource | null;
} {
  const stated: [string | null, LanguageSource][] = [
    [input.htmlLang, "html_lang"],
    [input.jsonLdLanguage, "jsonld"],
    [input.ogLocale, "og_locale"],
    [input.metaLanguage, "meta"],
    [input.headerLanguage, "http_header"],
  ];
  for (const [value, source] of stated) {
    const lang = primaryLanguage(value);
    if (lang) return { language: lang, source };
  }
  // The source's configured language outranks detection: a source is configured by someone who read it,
  // and detection on a short or mixed body (quotes, code, names) is a guess.
  const hint = primaryLanguage(input.hint);
  if (hint) return { language: hint, source: "hint" };
  const sample = input.body.length > 1200 ? input.body.slice(0, 1200) : input.body;
  if (sample.length >= 40) {
    const lang = detectText(sample);
    if (lang) return { language: lang, source: "detected" };
  }
  return { language: null, source: null };
}
