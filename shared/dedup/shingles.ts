/**
 * Tokens and shingles for every script, hashed on the fly (no token or shingle strings are built).
 *
 * A token is a run of Unicode letters, digits and combining marks (\p{L}\p{N}\p{M}: marks keep
 * Indic and other abugida words whole), case-folded. Scripts written without spaces (Han, kana,
 * Thai, Lao, Khmer, Myanmar, Tibetan…) give one token per character, so their shingles are
 * character n-grams. A shingle is `k` consecutive tokens, hashed once from the token hashes.
 *
 * The scanner writes into module-level typed buffers that grow as needed and are reused: results
 * are views valid until the next call.
 */
import { FNV_OFFSET, fmix32, fnvStep, mixStep } from "./hash";
import { foldChar } from "./normalise-text";

export const TOKEN_NUMBER = 1;
/** Capitalised token that does not start a sentence: a cheap named-entity proxy. */
export const TOKEN_ENTITY = 2;
/** One character of a script written without spaces. */
export const TOKEN_UNSPACED = 4;

const CLASS_SEP = 0;
const CLASS_WORD = 1;
const CLASS_UNSPACED = 2;
const CLASS_UNKNOWN = 255;

const WORD_RE = /[\p{L}\p{N}\p{M}]/u;
const UNSPACED_RE =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tibetan}\p{sc=Yi}\p{sc=Tai_Le}\p{sc=New_Tai_Lue}\p{sc=Tai_Tham}\p{sc=Tai_Viet}\p{sc=Balinese}\p{sc=Javanese}]/u;
// Characters after which the next capitalised word starts a sentence (not an entity signal).
const SENTENCE_BREAK = new Set([
  ".",
  "!",
  "?",
  "\n",
  "\r",
  ":",
  ";",
  '"',
  "“",
  "”",
  "«",
  "»",
  "(",
  "[",
  "—",
  "–",
  "•",
  "…",
]);

const bmpClass = new Uint8Array(0x10000).fill(CLASS_UNKNOWN);
for (let c = 0; c < 128; c++) {
  const isWord = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  bmpClass[c] = isWord ? CLASS_WORD : CLASS_SEP;
}

function classifyCodePoint(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (!WORD_RE.test(ch)) return CLASS_SEP;
  return UNSPACED_RE.test(ch) ? CLASS_UNSPACED : CLASS_WORD;
}

function classOf(cp: number): number {
  if (cp < 0x10000) {
    let c = bmpClass[cp]!;
    if (c === CLASS_UNKNOWN) {
      c = classifyCodePoint(cp);
      bmpClass[cp] = c;
    }
    return c;
  }
  return classifyCodePoint(cp);
}

function isUpper(cp: number): boolean {
  if (cp < 128) return cp >= 65 && cp <= 90;
  const ch = String.fromCodePoint(cp);
  return ch !== ch.toLowerCase();
}

function isDigitCp(cp: number): boolean {
  return cp >= 48 && cp <= 57;
}

let tokenHashes = new Uint32Array(4096);
let tokenFlags = new Uint8Array(4096);

function growTokens(): void {
  const h = new Uint32Array(tokenHashes.length * 2);
  h.set(tokenHashes);
  tokenHashes = h;
  const f = new Uint8Array(tokenFlags.length * 2);
  f.set(tokenFlags);
  tokenFlags = f;
}

export interface Tokens {
  /** Token hashes (view into a reused buffer). */
  readonly hashes: Uint32Array;
  /** TOKEN_* bit flags per token (view into a reused buffer). */
  readonly flags: Uint8Array;
  readonly count: number;
}

/** Scans normalised text (see normaliseText) into token hashes and flags. */
export function scanTokens(text: string): Tokens {
  let n = 0;
  let h = 0;
  let inWord = false;
  let allDigits = true;
  let capital = false;
  let sentenceStart = true;
  const len = text.length;
  const finishWord = (): void => {
    if (n === tokenHashes.length) growTokens();
    tokenHashes[n] = fmix32(h);
    tokenFlags[n] = (allDigits ? TOKEN_NUMBER : 0) | (capital && !sentenceStart ? TOKEN_ENTITY : 0);
    n++;
    inWord = false;
    sentenceStart = false;
  };
  for (let i = 0; i < len; i++) {
    let cp = text.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < len) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const cls = classOf(cp);
    if (cls === CLASS_WORD) {
      if (!inWord) {
        inWord = true;
        h = FNV_OFFSET;
        allDigits = true;
        capital = isUpper(cp);
      }
      if (cp < 128) {
        h = fnvStep(h, cp >= 65 && cp <= 90 ? cp | 0x20 : cp);
        if (!isDigitCp(cp)) allDigits = false;
      } else {
        const folded = foldChar(cp);
        for (let j = 0; j < folded.length; j++) h = fnvStep(h, folded.charCodeAt(j));
        allDigits = false;
      }
    } else {
      if (inWord) finishWord();
      if (cls === CLASS_UNSPACED) {
        if (n === tokenHashes.length) growTokens();
        // Distinct from any word hash of the same character: seeded differently.
        tokenHashes[n] = fmix32(fnvStep(FNV_OFFSET ^ 0x5bd1e995, cp));
        tokenFlags[n] = TOKEN_UNSPACED;
        n++;
        sentenceStart = false;
      } else if (cp >= 128 ? SENTENCE_BREAK.has(String.fromCodePoint(cp)) : SENTENCE_BREAK.has(text[i]!)) {
        sentenceStart = true;
      }
    }
    i += width - 1;
  }
  if (inWord) finishWord();
  return { hashes: tokenHashes.subarray(0, n), flags: tokenFlags.subarray(0, n), count: n };
}

let shingleBuf = new Uint32Array(4096);

/**
 * Distinct hashes of the k-token shingles, sorted ascending (view into a reused buffer).
 * Texts shorter than k tokens give one shingle of all their tokens; empty texts give none.
 */
export function shingleHashes(tokens: Tokens, k: number): Uint32Array {
  const n = tokens.count;
  if (n === 0) return shingleBuf.subarray(0, 0);
  const count = n < k ? 1 : n - k + 1;
  const width = Math.min(n, k);
  if (count > shingleBuf.length) shingleBuf = new Uint32Array(Math.max(count, shingleBuf.length * 2));
  const th = tokens.hashes;
  for (let i = 0; i < count; i++) {
    let h = 0x2f8a_1c3d;
    for (let j = 0; j < width; j++) h = mixStep(h, th[i + j]!);
    shingleBuf[i] = fmix32(h ^ width);
  }
  const view = shingleBuf.subarray(0, count);
  view.sort();
  let u = 0;
  for (let i = 0; i < count; i++) if (i === 0 || view[i] !== view[u - 1]) view[u++] = view[i]!;
  return shingleBuf.subarray(0, u);
}
