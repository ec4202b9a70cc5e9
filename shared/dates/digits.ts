/**
 * Digits of other scripts as ASCII: Arabic-Indic (٠–٩, Arabic pages) and Extended Arabic-Indic (۰–۹,
 * Persian and Urdu pages). Each is one UTF-16 unit, as its replacement is, so offsets into the text hold.
 */
const ARABIC_INDIC_ZERO = 0x0660;
const PERSIAN_ZERO = 0x06f0;
const HAS_OTHER_DIGIT = /[\u0660-\u0669\u06f0-\u06f9]/;

export function asciiDigits(s: string): string {
  if (!HAS_OTHER_DIGIT.test(s)) return s;
  return s.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (c) => {
    const code = c.charCodeAt(0);
    return String(code >= PERSIAN_ZERO ? code - PERSIAN_ZERO : code - ARABIC_INDIC_ZERO);
  });
}
