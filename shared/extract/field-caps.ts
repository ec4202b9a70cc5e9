/**
 * Every extracted field has a size, so an article always fits one DynamoDB item (400 KB, names and
 * UTF-8 values together): a field over its cap is cut and named in `truncated`, never a failed write.
 * Over the 803 pages of the four evaluation sets the longest headline has 144 characters and the
 * longest body 50 KB of UTF-8, so no real article meets these caps.
 */
import type { Extraction, TruncatedField } from "../records";
import { countWords } from "./text";

export const FIELD_CAPS = {
  /** Characters: 7× the longest headline seen; at most 3 KB of UTF-8. */
  headlineChars: 1_000,
  /** UTF-8 bytes: 4× the longest body seen (~33,000 English words), half the item. */
  bodyBytes: 200_000,
  /** Names: bylines carry a handful; wire stories with contributors a dozen. */
  authors: 20,
  /** Characters per name (longer is a sentence, not a name; authorsOf already drops those). */
  authorChars: 120,
  /** Characters: publication and section are labels. */
  labelChars: 200,
  /** Characters: the common URL limit (browsers, sitemaps.org's <loc>); a longer canonical is ignored. */
  urlChars: 2_048,
  /** Characters: a BCP 47 tag is at most 35 in practice; a longer one is not a language. */
  languageChars: 35,
} as const;

/**
 * The budget these caps leave, in bytes of the stored item (UTF-8 is at most 3 bytes per UTF-16 unit):
 * body 200,000 + two headlines 6,000 + authors and credit 2 × 20 × 360 + labels 3 × 600 + urls (url, canonical, ≤ 20
 * variants: 22 × 2,048) + fixed fields < 1,000 ≈ 269 KB, so 130 KB to spare under 400 KB.
 * The item stores the body gzip-compressed (record version 3): 0.44 of the text on the evaluation
 * pages, and for any text at most the text plus ~5 bytes per 64 KB block (deflate's stored blocks),
 * so the budget holds without trusting a ratio. The body cap stays in bytes of text: it also bounds
 * what the fingerprint, the export and consumers hold, and no real body comes near it (50 KB).
 */

/** Cuts a string to `chars` UTF-16 units without splitting a surrogate pair. */
export function cutChars(s: string, chars: number): string {
  if (s.length <= chars) return s;
  const end = isHighSurrogate(s.charCodeAt(chars - 1)) ? chars - 1 : chars;
  return s.slice(0, end);
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * Cuts a body to `bytes` of UTF-8 (never inside a character), at the last paragraph break (or else
 * space) in the final tenth when there is one, so the stored text ends on a whole paragraph or word.
 */
function cutUtf8(s: string, bytes: number): string {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most bodies are settled without encoding.
  if (s.length * 3 <= bytes) return s;
  const { read } = new TextEncoder().encodeInto(s, new Uint8Array(bytes));
  if (read >= s.length) return s;
  const cut = s.slice(0, read);
  const floor = read * 0.9;
  const para = cut.lastIndexOf("\n\n");
  if (para >= floor) return cut.slice(0, para);
  const space = cut.lastIndexOf(" ");
  return space >= floor ? cut.slice(0, space) : cut;
}

/** The extraction with every field inside its cap; `truncated` names the fields that were cut. */
export function capFields(x: Extraction): Extraction {
  const truncated: TruncatedField[] = [];
  const chars = (field: TruncatedField, v: string | null, max: number): string | null => {
    if (v === null || v.length <= max) return v;
    truncated.push(field);
    return cutChars(v, max);
  };
  const headline = chars("headline", x.headline, FIELD_CAPS.headlineChars);
  const headlineDeclared = chars("headline_declared", x.headline_declared, FIELD_CAPS.headlineChars);
  const kicker = chars("kicker", x.kicker, FIELD_CAPS.labelChars);
  const publication = chars("publication", x.publication, FIELD_CAPS.labelChars);
  const section = chars("section", x.section, FIELD_CAPS.labelChars);
  const body = cutUtf8(x.body, FIELD_CAPS.bodyBytes);
  if (body.length < x.body.length) truncated.push("body");
  let authors = x.authors;
  if (authors.length > FIELD_CAPS.authors || authors.some((a) => a.length > FIELD_CAPS.authorChars)) {
    authors = authors.slice(0, FIELD_CAPS.authors).map((a) => cutChars(a, FIELD_CAPS.authorChars));
    truncated.push("authors");
  }
  let credit = x.credit;
  if (credit.length > FIELD_CAPS.authors || credit.some((a) => a.length > FIELD_CAPS.authorChars)) {
    credit = credit.slice(0, FIELD_CAPS.authors).map((a) => cutChars(a, FIELD_CAPS.authorChars));
    truncated.push("credit");
  }
  // A canonical URL or language too long to be one is not evidence: dropped, as an unreadable one is.
  const canonical =
    x.canonical_from_page !== null && x.canonical_from_page.length > FIELD_CAPS.urlChars
      ? null
      : x.canonical_from_page;
  const tooLongLanguage = x.language !== null && x.language.length > FIELD_CAPS.languageChars;
  if (truncated.length === 0 && canonical === x.canonical_from_page && !tooLongLanguage) return x;
  return {
    ...x,
    canonical_from_page: canonical,
    headline,
    headline_declared: headlineDeclared,
    kicker,
    publication,
    section,
    body,
    // The count describes the stored text.
    word_count: body === x.body ? x.word_count : countWords(body),
    authors,
    credit,
    ...(tooLongLanguage ? { language: null, language_source: null } : {}),
    ...(truncated.length > 0 ? { truncated } : {}),
  };
}
