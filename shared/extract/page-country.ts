/**
 * The country a page is published from, as far as the page says: the region of its locale (`<html lang>`,
 * og:locale, the source's configured language: "en-GB", "de_AT"), else the country of its top-level domain
 * (".de", ".co.uk"; ".gov", ".mil" and ".edu" are US-only). Used for the publisher's time zone when the
 * source has none configured (dates.ts): a country's zones come from the runtime's ICU data (Intl.Locale).
 */
import type { LocaleSignals } from "./date-order";

/** Country-code domains sold for their letters, not their country (".io" sites are not from Chagos). */
const GENERIC_CCTLDS = new Set([
  "ai",
  "am",
  "cc",
  "co",
  "eu",
  "fm",
  "gg",
  "io",
  "la",
  "ly",
  "me",
  "nu",
  "sh",
  "tk",
  "to",
  "tv",
  "ws",
]);
/** Top-level domains that name a country other than by its ISO code. */
const TLD_COUNTRY: Readonly<Record<string, string>> = { uk: "GB", gov: "US", mil: "US", edu: "US" };

/** The ISO 3166 region of a language tag ("en-US", "en_gb" → "US", "GB"), else null. */
export function regionOf(tag: string | null | undefined): string | null {
  if (!tag) return null;
  for (const part of tag.trim().split(/[-_]/).slice(1))
    if (/^[a-z]{2}$/i.test(part)) return part.toUpperCase();
  return null;
}

function tldCountry(url: string | null | undefined): string | null {
  if (!url) return null;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  const tld = host.slice(host.lastIndexOf(".") + 1);
  const named = TLD_COUNTRY[tld];
  if (named) return named;
  return /^[a-z]{2}$/.test(tld) && !GENERIC_CCTLDS.has(tld) ? tld.toUpperCase() : null;
}

/** The page's country (ISO 3166 alpha-2), else null. */
export function pageCountry(locale: LocaleSignals): string | null {
  return (
    regionOf(locale.htmlLang) ??
    regionOf(locale.ogLocale) ??
    regionOf(locale.languageHint) ??
    tldCountry(locale.url)
  );
}

/** The IANA zones of a country, as the runtime's ICU lists them (empty when it knows none). */
export function countryZones(country: string | null): readonly string[] {
  if (!country) return [];
  try {
    const locale = new Intl.Locale(`und-${country}`) as Intl.Locale & {
      timeZones?: string[];
      getTimeZones?: () => string[];
    };
    // Node 20's V8 has the getter; later ones the method (the getter was renamed).
    return locale.getTimeZones?.() ?? locale.timeZones ?? [];
  } catch {
    return [];
  }
}
