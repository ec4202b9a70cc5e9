/**
 * Page language as an ISO 639-1 code (or the primary subtag the page states), with where it came from:
 * <html lang>, JSON-LD inLanguage, og:locale, Content-Language (meta or header), else detected from the body.
 */
import { franc } from "franc-min";
import type { LanguageSource } from "../records";

// franc-min's ISO 639-3 codes that have an ISO 639-1 code.
const ISO3_TO_1: Record<string, string> = {
  spa: "es",
  eng: "en",
  por: "pt",
  ind: "id",
  fra: "fr",
  deu: "de",
  jav: "jv",
  vie: "vi",
  ita: "it",
  tur: "tr",
  pol: "pl",
  swh: "sw",
  sun: "su",
  ron: "ro",
  hau: "ha",
  bos: "bs",
  hrv: "hr",
  nld: "nl",
  srp: "sr",
  ckb: "ku",
  yor: "yo",
  uzn: "uz",
  zlm: "ms",
  ibo: "ig",
  tgl: "tl",
  hun: "hu",
  azj: "az",
  ces: "cs",
  run: "rn",
  plt: "mg",
  nya: "ny",
  kin: "rw",
  zul: "zu",
  swe: "sv",
  lin: "ln",
  som: "so",
  rus: "ru",
  ukr: "uk",
  bel: "be",
  bul: "bg",
  kaz: "kk",
  arb: "ar",
  urd: "ur",
  pes: "fa",
  pbu: "ps",
  hin: "hi",
  mar: "mr",
  mai: "mai",
  npi: "ne",
  cmn: "zh",
  ben: "bn",
  jpn: "ja",
  kor: "ko",
  tel: "te",
  tam: "ta",
  guj: "gu",
  kan: "kn",
  mal: "ml",
  mya: "my",
  pan: "pa",
  amh: "am",
  tha: "th",
  sin: "si",
  ell: "el",
};

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
  const sample = input.body.length > 1200 ? input.body.slice(0, 1200) : input.body;
  if (sample.length >= 40) {
    const code = franc(sample, { minLength: 40 });
    const lang = ISO3_TO_1[code];
    if (lang) return { language: lang, source: "detected" };
  }
  const hint = primaryLanguage(input.hint);
  if (hint) return { language: hint, source: "hint" };
  return { language: null, source: null };
}
