/**
 * Synthetic news-like articles for the benchmarks: random sentences over a fixed vocabulary, with
 * names and numbers, and a share of near-duplicate copies (truncated, edited). Deterministic.
 */
import { splitmix32 } from "../shared/dedup/hash";

const VOCAB = (
  "the of and to in a is that for it as was with be by on not he this are or his from at which but have an they " +
  "you were her she there been one all we their has would when if so no will more other its about into than them " +
  "can only time new some could these two may first then do any like my now over such our man me even most made " +
  "after also did many before must through back years where much your way well down should because each just those " +
  "people how too little state good very make world still own see men work long get here between both life being " +
  "under never day same another know while last might us great old year off come since against go came right used " +
  "take three government council police minister company market report officials said according election court"
).split(" ");
const NAMES =
  "Maria James Aisha Tom Elena David Priya Lucas Grace Omar Hannah Kenji Lopez Smith Khan Nguyen".split(" ");

export interface SyntheticArticle {
  id: string;
  title: string;
  text: string;
  ts: string;
}

export function* syntheticArticles(
  count: number,
  wordsPerArticle: number,
  seed: number,
): Iterable<SyntheticArticle> {
  const rnd = splitmix32(seed);
  const pick = <T>(a: readonly T[]): T => a[rnd() % a.length]!;
  const sentence = (): string => {
    const len = 8 + (rnd() % 14);
    const w: string[] = [];
    for (let i = 0; i < len; i++) {
      const r = rnd() % 20;
      w.push(r === 0 ? pick(NAMES) : r === 1 ? String(rnd() % 2000) : pick(VOCAB));
    }
    const s = w.join(" ");
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  };
  const originals: string[][] = [];
  const t0 = Date.parse("2024-03-01T00:00:00Z");
  for (let i = 0; i < count; i++) {
    let paragraphs: string[];
    if (originals.length > 0 && rnd() % 3 === 0) {
      // a copy: maybe truncated, maybe with a byline
      const src = pick(originals);
      paragraphs = src.slice(0, rnd() % 4 === 0 ? Math.max(2, src.length >> 1) : src.length);
      if (rnd() % 2 === 0) paragraphs = [`By ${pick(NAMES)} ${pick(NAMES)}`, ...paragraphs];
    } else {
      paragraphs = [];
      let words = 0;
      while (words < wordsPerArticle) {
        const p = [sentence(), sentence(), sentence()].join(" ");
        words += p.split(" ").length;
        paragraphs.push(p);
      }
      originals.push(paragraphs);
      if (originals.length > 2000) originals.shift();
    }
    yield {
      id: `a${String(i).padStart(7, "0")}`,
      title: paragraphs[0]!.split(" ").slice(0, 10).join(" "),
      text: paragraphs.join("\n\n"),
      ts: new Date(t0 + i * 1000).toISOString(),
    };
  }
}
