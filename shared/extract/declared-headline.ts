/**
 * The headline a page declares for sharing and search: JSON-LD `headline` (or microdata's), og:title and
 * twitter:title, with a site-name decoration cut off and otherwise as declared (its own quotes, kicker and
 * wording: no other source rewrites it). `headline` is what the page shows; the two differ where a
 * publisher writes a social or search title, or keeps a kicker in the declared one.
 *
 * Order of trust: JSON-LD, then og:title, then twitter:title. When JSON-LD and og:title state two different
 * headlines (one of them written for search or social feeds), the one nearer the headline the page shows
 * (`shown`, chooseHeadline's) is the article's declared headline; the shown one only arbitrates, its own
 * wording is never taken.
 */
import { type HeadlineInput, similarity } from "./headline";
import { hostName, titleKey as key, stripSiteName } from "./site-name";
import { cleanInline } from "./text";

/** A declared value cut short with an ellipsis ("Some long headline th…"): the next source's full wording. */
const ELLIPSIS = /\s*(?:\.\.\.|…)$/;

export function declaredHeadline(input: HeadlineInput, shown: string | null): string | null {
  const siteNames = [input.siteName, ...(input.logoH1 ?? [])].filter((n): n is string => !!n);
  const host = hostName(input.url);
  const raw = [input.jsonLd, input.og, input.twitter].map((v) => (v ? cleanInline(v) : ""));
  const values: (string | null)[] = raw.map((v, i) => {
    if (!key(v)) return null;
    const stem = v.replace(ELLIPSIS, "");
    const fuller =
      stem !== v && stem.length >= 20 ? raw.slice(i + 1).find((o) => o.startsWith(stem)) : undefined;
    // Only a site name is cut: a part another source confirms may be the declared kicker ("Topic: …").
    const text = stripSiteName(fuller ?? v, siteNames, [], host);
    return key(text) ? text : null;
  });
  const [ld, og, twitter] = values;
  if (ld && og && ld !== og) {
    if (shown) {
      // The same words: the wording the <h1> shows character for character, else JSON-LD's.
      if (key(ld) === key(og)) return og === shown ? og : ld;
      const [a, b] = [similarity(key(shown), key(ld)), similarity(key(shown), key(og))];
      if (b > a) return og;
    }
  }
  return ld ?? og ?? twitter ?? null;
}
