/**
 * How often the extractor fills the fields a set has no truth for: the share of pages with a declared
 * headline, a kicker, authors or credits, and a publication day. No set labels a kicker, AEB and the
 * trafilatura set label neither authors nor dates, and the htmldate set labels only the day: for those,
 * how often a field is found is the figure there is (a drop means a rule stopped finding it; a rise is
 * not proof it is right).
 */
import type { Extraction } from "../shared/records";

/** The fields counted, with what counts as found. */
const FOUND: Record<string, (e: Extraction) => boolean> = {
  found_headline_declared: (e) => e.headline_declared !== null,
  found_kicker: (e) => e.kicker !== null,
  found_authors: (e) => e.authors.length + e.credit.length > 0,
  found_day: (e) => e.published_day !== null,
};

export const FOUND_METRICS = Object.keys(FOUND);

/** The share of `ids` (all predictions when omitted) on which each field is found. */
export function foundShares(predictions: Record<string, Extraction>, ids?: string[]): Record<string, number> {
  const pages = (ids ?? Object.keys(predictions)).map((id) => predictions[id]).filter((e) => e !== undefined);
  const out: Record<string, number> = {};
  for (const [name, found] of Object.entries(FOUND))
    out[name] = pages.length ? pages.filter(found).length / pages.length : 0;
  return out;
}
