/**
 * The kicker (topline, overline, "Dachzeile"): the short label a page sets over or before its headline
 * ("Analysis", "Ukraine war"). Read from markup first (an element whose class names a kicker, inside the
 * <h1> or just before it), then from text: the <h1> or the declared headline is the shown headline behind a
 * label set off by punctuation ("Kicker: Headline", "Kicker | Headline") or by its own element.
 */
import { scanDates } from "./date-parse";
import { PART } from "./heading-candidates";
import type { HeadlineInput } from "./headline";
import { titleKey as key } from "./site-name";
import { cleanInline } from "./text";

/** A kicker is a label: a few words, shorter than the headline. */
const MAX_KICKER_WORDS = 8;
const MAX_KICKER_CHARS = 100;
const SEPARATOR_AT_END = /\s*[-:|–—·•»«/]\s*$/;
/** Punctuation a kicker's markup leaves before its words (", Thema: Forschung"). */
const LEADING_PUNCTUATION = /^[\s,.;:|·•\-–—/]+/;

function isLabel(kicker: string, headline: string): boolean {
  const k = key(kicker);
  return (
    k.length > 0 &&
    kicker.length <= MAX_KICKER_CHARS &&
    k.split(" ").length <= MAX_KICKER_WORDS &&
    kicker.length < headline.length &&
    !key(headline).includes(k) &&
    // A dateline set beside the heading ("media Sept. 2, 2016") is the byline's, not a label.
    scanDates(kicker, 1).length === 0
  );
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** What comes before `headline` in `text` when a separator, or a part boundary, sets it off; else null. */
function labelBefore(text: string, headline: string): string | null {
  const hk = key(headline);
  const plain = text.replaceAll(PART, "");
  if (hk.length < 8 || !key(plain).endsWith(` ${hk}`)) return null;
  for (let i = 1; i < text.length; i++) {
    // A cut right after a letter or digit leaves no separator before it and can never qualify: skipped
    // without computing a key (a key per character was quadratic in the heading's length).
    if (WORD_CHAR.test(text[i - 1]!) || key(text.slice(i).replaceAll(PART, "")) !== hk) continue;
    const before = text.slice(0, i);
    const marked = before.trimEnd().endsWith(PART);
    if (!marked && !SEPARATOR_AT_END.test(before)) continue;
    const label = cleanInline(before.replaceAll(PART, " ").replace(SEPARATOR_AT_END, "")).replace(
      LEADING_PUNCTUATION,
      "",
    );
    return isLabel(label, headline) ? label : null;
  }
  return null;
}

export function kickerOf(
  headline: string | null,
  input: HeadlineInput,
  declared: string | null,
): string | null {
  if (!headline) return null;
  const hk = key(headline);
  const kickers = input.h1Kicker ?? [];
  // The <h1> that shows the headline: its kicker markup, else a label its text sets before the headline.
  for (const [i, h] of input.h1.entries()) {
    const k = key(h.replaceAll(PART, ""));
    if (k !== hk && !k.endsWith(` ${hk}`)) continue;
    const markup = kickers[i]?.replace(LEADING_PUNCTUATION, "");
    if (markup && isLabel(markup, headline)) return markup;
    const label = labelBefore(h, headline);
    if (label) return label;
  }
  return declared ? labelBefore(declared, headline) : null;
}
