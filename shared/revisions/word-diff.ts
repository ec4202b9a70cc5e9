/**
 * A word-level summary of how one body became another: how many words were added and removed, and the
 * first of each as a sample. The common start and end are set aside, then the words between are
 * compared as multisets (a word counts as added for each use beyond the earlier text's). That is linear
 * in the text, where an edit script (LCS, Myers) is quadratic in the worst case: a 200,000-byte body
 * (the cap) has ~33,000 words, 10^9 cells. What it gives up: a sentence moved within the changed span
 * counts as neither added nor removed, which a summary of "what changed" can afford.
 */
import { cutChars } from "../extract/field-caps";

/** Characters of each sample: a sentence or two, so that 20 revisions stay small in one item. */
export const DIFF_SAMPLE_CHARS = 200;

export interface WordDiff {
  readonly added: number;
  readonly removed: number;
  /** The added words in their order in the later text, joined by spaces, cut to DIFF_SAMPLE_CHARS. */
  readonly addedSample: string;
  readonly removedSample: string;
}

function wordsOf(text: string): string[] {
  return text.match(/\S+/gu) ?? [];
}

/** The words of `from` not matched in `to`'s multiset, in `from`'s order. */
function unmatched(from: readonly string[], to: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const w of to) left.set(w, (left.get(w) ?? 0) + 1);
  const out: string[] = [];
  for (const w of from) {
    const n = left.get(w) ?? 0;
    if (n > 0) left.set(w, n - 1);
    else out.push(w);
  }
  return out;
}

function sample(words: readonly string[]): string {
  let text = "";
  for (const w of words) {
    if (text.length > DIFF_SAMPLE_CHARS) break;
    text = text ? `${text} ${w}` : w;
  }
  return cutChars(text, DIFF_SAMPLE_CHARS);
}

export function wordDiff(before: string, after: string): WordDiff {
  const a = wordsOf(before);
  const b = wordsOf(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
    end++;
  const oldMid = a.slice(start, a.length - end);
  const newMid = b.slice(start, b.length - end);
  const added = unmatched(newMid, oldMid);
  const removed = unmatched(oldMid, newMid);
  return {
    added: added.length,
    removed: removed.length,
    addedSample: sample(added),
    removedSample: sample(removed),
  };
}
