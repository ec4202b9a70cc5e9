/**
 * The order of a numeric date's day and month: "03/04/2026" is 3 April nearly everywhere, 4 March in the
 * United States. The page's locale decides: the region of `<html lang>`, of og:locale or of the source's
 * configured language ("en-US", "en_US"), else the country of the site's top-level domain (".us", and the
 * US-only ".gov", ".mil", ".edu"). Without a region or a country the reading is day first, and the dates
 * cross-check (dates.ts) settles a slash date the page's other dates contradict. A first or second number
 * over 12 decides either way in the parser (shared/extract/date-parse.ts); dotted and dashed dates are
 * always day first.
 */

/** Regions that write the month first: the United States and the places that follow its usage. */
const MONTH_FIRST_REGIONS = new Set(["us", "ph", "fm", "mh", "pw", "as", "gu", "mp", "pr", "um", "vi"]);
/** Top-level domains of those regions, and the ones only US institutions hold. */
const MONTH_FIRST_TLDS = new Set([...MONTH_FIRST_REGIONS, "gov", "mil", "edu"]);

export interface LocaleSignals {
  htmlLang?: string | null;
  ogLocale?: string | null;
  languageHint?: string | null;
  url?: string | null;
}

/** The region subtag of a language tag ("en-US", "en_us" → "us"; "zh-Hant-TW" → "tw"), else null. */
function regionOf(tag: string | null | undefined): string | null {
  if (!tag) return null;
  for (const part of tag.trim().toLowerCase().split(/[-_]/).slice(1))
    if (/^[a-z]{2}$/.test(part) || /^\d{3}$/.test(part)) return part;
  return null;
}

function topLevelDomain(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const host = new URL(url).hostname;
    return host.slice(host.lastIndexOf(".") + 1).toLowerCase() || null;
  } catch {
    return null;
  }
}

/** True when slash dates on the page are read day first (the default). */
export function readsDayFirst(locale: LocaleSignals): boolean {
  const region = regionOf(locale.htmlLang) ?? regionOf(locale.ogLocale) ?? regionOf(locale.languageHint);
  if (region) return !MONTH_FIRST_REGIONS.has(region);
  const tld = topLevelDomain(locale.url);
  return !(tld && MONTH_FIRST_TLDS.has(tld));
}
