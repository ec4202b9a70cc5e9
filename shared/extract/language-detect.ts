/**
 * Language of a text by franc's method (wooorm/franc, MIT): the script most of the characters are in picks the
 * candidates; a script one language owns (Japanese kana, Hangul, Thai…) answers at once, otherwise the text's
 * trigrams, ranked by frequency, are compared with each candidate's 300 most frequent (the out-of-place
 * distance) and the nearest wins. The models are franc's, for the languages we store (language-data.ts).
 */
import { asTuples } from "trigram-utils";
import { ISO3_TO_1 } from "./language-codes";
import { MODELS, SCRIPTS } from "./language-data";

/** franc's: longer samples only cost time. */
const MAX_LENGTH = 2048;
/** franc's penalty for a trigram the model lacks (its rank range is 0–299). */
const MAX_DIFFERENCE = 300;

/** Trigram → rank per model, built once per process (immutable after). */
const RANKS: Record<string, Record<string, Map<string, number>>> = {};
for (const [script, languages] of Object.entries(MODELS)) {
  const byLanguage: Record<string, Map<string, number>> = {};
  for (const [code, model] of Object.entries(languages)) {
    const ranks = new Map<string, number>();
    model.split("|").forEach((t, i) => {
      ranks.set(t, i);
    });
    byLanguage[code] = ranks;
  }
  RANKS[script] = byLanguage;
}

function topScript(text: string): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [name, re] of Object.entries(SCRIPTS)) {
    const count = text.match(re)?.length ?? 0;
    if (count > bestCount) {
      best = name;
      bestCount = count;
    }
  }
  return best;
}

/** ISO 639-1 code of the text's language, or null when it has no letters we can place. */
export function detectText(input: string): string | null {
  const text = input.slice(0, MAX_LENGTH);
  const script = topScript(text);
  if (!script) return null;
  const models = RANKS[script];
  if (!models) return ISO3_TO_1[script] ?? null;
  const trigrams = asTuples(text);
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [code, ranks] of Object.entries(models)) {
    let distance = 0;
    // franc's distance, as franc computes it: the trigram's count against the model's rank.
    for (let i = 0; i < trigrams.length && distance < bestDistance; i++) {
      const [trigram, count] = trigrams[i]!;
      const r = ranks.get(trigram);
      distance += r === undefined ? MAX_DIFFERENCE : Math.abs(count - r - 1);
    }
    if (distance < bestDistance) {
      best = code;
      bestDistance = distance;
    }
  }
  return best ? (ISO3_TO_1[best] ?? null) : null;
}
