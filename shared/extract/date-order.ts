/**
 * The order of a numeric date's day and month: "03/04/2026" is 3 April nearly everywhere, 4 March in US
 * English. Month first only when the page (html lang) or the source's configured language names the US
 * region; a first number over 12 decides either way in the parser (shared/extract/date-parse.ts).
 */
const US_ENGLISH = /^en[-_]us$/i;

/** True when slash dates on the page are read day first (the default). */
export function readsDayFirst(htmlLang: string | null, languageHint: string | null | undefined): boolean {
  return !US_ENGLISH.test(htmlLang?.trim() ?? "") && !US_ENGLISH.test(languageHint?.trim() ?? "");
}
