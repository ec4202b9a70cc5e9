/**
 * Deterministic synthetic news: stories of plain words, each with copies that carry the edits
 * syndication makes (a headline prefix, a credit line, a dropped paragraph, truncation), plus
 * unrelated singletons. Enough to exercise clustering without the evaluation corpus.
 */

import type { DedupArticle } from "../../shared/dedup/dedup-store";
import { computeFingerprint } from "../../shared/dedup/fingerprint";
export interface SyntheticArticle {
  readonly id: string;
  readonly story: string;
  readonly title: string;
  readonly text: string;
  readonly published_at: string;
  readonly publication: string;
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "tas",
  "vo",
  "dun",
  "pel",
  "sar",
  "quo",
  "bri",
  "nel",
  "fa",
  "tor",
  "gim",
  "hul",
];

export function syntheticStories(opts: {
  stories: number;
  copies: number;
  singletons: number;
  seed: number;
  prefix?: string;
}): SyntheticArticle[] {
  const prefix = opts.prefix ?? "";
  const rnd = prng(opts.seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const word = () => Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(SYLLABLES)).join("");
  const sentence = () => {
    const w = Array.from({ length: 10 + Math.floor(rnd() * 10) }, word);
    return `${w.join(" ")}.`;
  };
  const paragraph = () => Array.from({ length: 3 }, sentence).join(" ");
  const out: SyntheticArticle[] = [];
  const base = Date.parse("2026-11-30T00:00:00Z");
  for (let s = 0; s < opts.stories; s++) {
    const paragraphs = Array.from({ length: 6 }, paragraph);
    const title = sentence();
    for (let c = 0; c <= opts.copies; c++) {
      let ps = [...paragraphs];
      if (c % 3 === 1) ps.push(`Reporting by ${word()} ${word()}; editing by ${word()}.`);
      if (c % 3 === 2) ps = ps.slice(0, 4);
      if (c % 4 === 3) ps.splice(2, 1);
      out.push({
        id: `${prefix}s${s}-c${c}`,
        story: `${prefix}s${s}`,
        title: c % 2 ? `UPDATE ${title}` : title,
        text: ps.join("\n\n"),
        published_at: new Date(base + s * 3_600_000 + c * 60_000).toISOString(),
        publication: `outlet-${c}`,
      });
    }
  }
  for (let i = 0; i < opts.singletons; i++) {
    out.push({
      id: `${prefix}u${i}`,
      story: `${prefix}u${i}`,
      title: sentence(),
      text: Array.from({ length: 5 }, paragraph).join("\n\n"),
      published_at: new Date(base + i * 1000).toISOString(),
      publication: "outlet-x",
    });
  }
  return out;
}

/** A synthetic article as fetch hands it to dedup: its outlet's URL, collected when published. */
export function dedupMessageOf(a: SyntheticArticle): DedupArticle {
  return {
    article_id: a.id,
    url: `https://${a.publication}.example/${a.id}`,
    publication: a.publication,
    source_id: `src-${a.publication}`,
    headline: a.title,
    published_at: a.published_at,
    collected_at: a.published_at,
    fingerprint: computeFingerprint(a.text, a.title),
  };
}
