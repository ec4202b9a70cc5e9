/**
 * Language of a text by franc's method (wooorm/franc, MIT): the script most of the characters are in picks the
 * candidates; a script one language owns (Japanese kana, Hangul, Thai…) answers at once, otherwise the text's
 * trigrams, ranked by frequency, are compared with each candidate's 300 most frequent (the out-of-place
 * distance) and the nearest wins. The models are franc's, for the languages we store (language-data.ts).
 */
import { clean } from "trigram-utils";
import { ISO3_TO_1 } from "./language-codes";
import { MODELS, SCRIPTS } from "./language-data";

/** franc's: longer samples only cost time. */
const MAX_LENGTH = 2048;
/** franc's penalty for a trigram the model lacks (its rank range is 0–299). */
const MAX_DIFFERENCE = 300;

/**
 * One script's models as one table: trigram → its rank in each language's model (MAX_DIFFERENCE + 1 when
 * the model lacks it), so a text's trigram is looked up once for every language of the script at once.
 * Built once per process (immutable after).
 */
interface ScriptModels {
  readonly codes: readonly string[];
  readonly ranks: ReadonlyMap<string, Int16Array>;
}
const ABSENT = MAX_DIFFERENCE + 1;
const TABLES: Record<string, ScriptModels> = {};
for (const [script, languages] of Object.entries(MODELS)) {
  const codes = Object.keys(languages);
  const ranks = new Map<string, Int16Array>();
  codes.forEach((code, l) => {
    languages[code]!.split("|").forEach((t, i) => {
      let row = ranks.get(t);
      if (row === undefined) {
        row = new Int16Array(codes.length).fill(ABSENT);
        ranks.set(t, row);
      }
      row[l] = i;
    });
  });
  TABLES[script] = { codes, ranks };
}

/**
 * The text's trigrams and their counts, as trigram-utils' asTuples gives them (its clean(), padded with a
 * space): a Map counted in one loop, where asTuples builds an array of trigrams, a dictionary and tuples.
 */
function trigramCounts(text: string): Map<string, number> {
  const padded = ` ${clean(text)} `;
  const counts = new Map<string, number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    const t = padded.slice(i, i + 3);
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return counts;
}

function topScript(text: string): string | null {
  // A script with more than half the characters has the most: the others share what is left.
  const latin = text.match(SCRIPTS.Latin!)?.length ?? 0;
  if (latin * 2 > text.length) return "Latin";
  let best: string | null = null;
  let bestCount = 0;
  for (const [name, re] of Object.entries(SCRIPTS)) {
    const count = name === "Latin" ? latin : (text.match(re)?.length ?? 0);
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
  const table = TABLES[script];
  if (!table) return ISO3_TO_1[script] ?? null;
  const { codes, ranks } = table;
  // franc's distance, as franc computes it: per trigram, its count against the model's rank, or
  // MAX_DIFFERENCE when the model lacks it. The nearest model wins; the first listed on a tie.
  const distances = new Float64Array(codes.length);
  for (const [trigram, count] of trigramCounts(text)) {
    const row = ranks.get(trigram);
    if (row === undefined) {
      for (let l = 0; l < distances.length; l++) distances[l]! += MAX_DIFFERENCE;
      continue;
    }
    for (let l = 0; l < distances.length; l++) {
      const r = row[l]!;
      distances[l]! += r === ABSENT ? MAX_DIFFERENCE : Math.abs(count - r - 1);
    }
  }
  let best = -1;
  for (let l = 0; l < distances.length; l++) if (best < 0 || distances[l]! < distances[best]!) best = l;
  return best >= 0 ? (ISO3_TO_1[codes[best]!] ?? null) : null;
}
