/**
 * Tokens and shingles for every script, hashed on the fly (no token or shingle strings are built).
 *
 * A token is a run of Unicode letters, digits and combining marks (\p{L}\p{N}\p{M}: marks keep
 * Indic and other abugida words whole), case-folded. Scripts written without spaces (Han, kana,
 * Thai, Lao, Khmer, Myanmar, Tibetan…) give one token per character, so their shingles are
 * character n-grams. A shingle is `k` consecutive tokens, hashed once from the token hashes.
 *
 * A Shingler holds the scanner's working state: typed buffers that grow as needed and are reused
 * (results are views valid until its next call), and the class and case folding of each code point it
 * has met. Whoever computes many fingerprints keeps one (runDedup: one per run): one made per text
 * costs ~12 µs of allocations and relearnt code points, 6–7 % of a fingerprint (dedup dev corpus).
 */
import { FNV_OFFSET, FNV_PRIME, fmix32, mixStep } from "./hash";
import { foldChar } from "./normalise-text";

export const TOKEN_NUMBER = 1;
/** Capitalised token that does not start a sentence: a cheap named-entity proxy. */
export const TOKEN_ENTITY = 2;
/** One character of a script written without spaces. */
const TOKEN_UNSPACED = 4;

/** Zero, so that a fresh (zero-filled) class table needs no filling. */
const CLASS_UNKNOWN = 0;
const CLASS_SEP = 1;
const CLASS_WORD = 2;
const CLASS_UNSPACED = 3;

const WORD_RE = /[\p{L}\p{N}\p{M}]/u;
const UNSPACED_RE =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tibetan}\p{sc=Yi}\p{sc=Tai_Le}\p{sc=New_Tai_Lue}\p{sc=Tai_Tham}\p{sc=Tai_Viet}\p{sc=Balinese}\p{sc=Javanese}]/u;
// Characters after which the next capitalised word starts a sentence (not an entity signal).

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const isWord = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  ASCII_CLASS[c] = isWord ? CLASS_WORD : CLASS_SEP;
}

function classifyCodePoint(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (!WORD_RE.test(ch)) return CLASS_SEP;
  return UNSPACED_RE.test(ch) ? CLASS_UNSPACED : CLASS_WORD;
}

function isUpper(cp: number): boolean {
  if (cp < 128) return cp >= 65 && cp <= 90;
  const ch = String.fromCodePoint(cp);
  return ch !== ch.toLowerCase();
}

export interface Tokens {
  /** Token hashes (view into a reused buffer). */
  readonly hashes: Uint32Array;
  /** TOKEN_* bit flags per token (view into a reused buffer). */
  readonly flags: Uint8Array;
  readonly count: number;
}

function isSentenceBreak(cp: number): boolean {
  switch (cp) {
    case 0x2e: // .
    case 0x21: // !
    case 0x3f: // ?
    case 0x0a:
    case 0x0d:
    case 0x3a: // :
    case 0x3b: // ;
    case 0x22: // "
    case 0x28: // (
    case 0x5b: // [
    case 0x201c: // “
    case 0x201d: // ”
    case 0xab: // «
    case 0xbb: // »
    case 0x2014: // —
    case 0x2013: // –
    case 0x2022: // •
    case 0x2026: // …
    case 0x3002: // 。
    case 0xff01: // ！
    case 0xff1f: // ？
      return true;
    default:
      return false;
  }
}

/** The scanner's working state; see the top of this file. Not for concurrent use (results share buffers). */
export class Shingler {
  // Sized by the first text (a Shingler made per text allocates what that text needs, once).
  private tokenHashes = new Uint32Array(0);
  private tokenFlags = new Uint8Array(0);
  private shingleBuf = new Uint32Array(0);
  /** Class of each non-ASCII BMP code point met so far (CLASS_UNKNOWN until then). */
  private readonly bmpClass = new Uint8Array(0x10000);
  /** foldChar of each non-ASCII code point met so far: folding dominated shingling's time on non-Latin text. */
  private readonly folds = new Map<number, string>();

  /** Token buffers of at least `need` slots (contents are not kept: every scan writes from 0). */
  private reserveTokens(need: number): void {
    if (this.tokenHashes.length >= need) return;
    const size = 2 ** Math.ceil(Math.log2(need));
    this.tokenHashes = new Uint32Array(size);
    this.tokenFlags = new Uint8Array(size);
  }

  /** Scans normalised text (see normaliseText) into token hashes and flags. */
  scanTokens(text: string): Tokens {
    let n = 0;
    let h = 0;
    let inWord = false;
    let allDigits = true;
    let capital = false;
    let sentenceStart = true;
    const len = text.length;
    // Upper bound on tokens: one per code unit.
    this.reserveTokens(len + 1);
    const hashes = this.tokenHashes;
    const flags = this.tokenFlags;
    const classes = this.bmpClass;
    const folds = this.folds;
    for (let i = 0; i < len; i++) {
      let cp = text.charCodeAt(i);
      let cls: number;
      if (cp < 128) {
        cls = ASCII_CLASS[cp]!;
      } else {
        if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < len) {
          const lo = text.charCodeAt(i + 1);
          if (lo >= 0xdc00 && lo <= 0xdfff) {
            cp = ((cp - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
            i++;
          }
        }
        if (cp < 0x10000) {
          cls = classes[cp]!;
          if (cls === CLASS_UNKNOWN) {
            cls = classifyCodePoint(cp);
            classes[cp] = cls;
          }
        } else {
          cls = classifyCodePoint(cp);
        }
      }
      if (cls === CLASS_WORD) {
        if (!inWord) {
          inWord = true;
          h = FNV_OFFSET;
          allDigits = true;
          capital = cp < 128 ? cp >= 65 && cp <= 90 : isUpper(cp);
        }
        if (cp < 128) {
          h = Math.imul(h ^ (cp >= 65 && cp <= 90 ? cp | 0x20 : cp), FNV_PRIME);
          if (cp > 57) allDigits = false;
        } else {
          let folded = folds.get(cp);
          if (folded === undefined) {
            folded = foldChar(cp);
            folds.set(cp, folded);
          }
          for (let j = 0; j < folded.length; j++) h = Math.imul(h ^ folded.charCodeAt(j), FNV_PRIME);
          allDigits = false;
        }
        continue;
      }
      if (inWord) {
        hashes[n] = fmix32(h);
        flags[n] = (allDigits ? TOKEN_NUMBER : 0) | (capital && !sentenceStart ? TOKEN_ENTITY : 0);
        n++;
        inWord = false;
        sentenceStart = false;
      }
      if (cls === CLASS_UNSPACED) {
        // Distinct from any word hash of the same character: seeded differently.
        hashes[n] = fmix32(Math.imul(FNV_OFFSET ^ 0x5bd1e995 ^ cp, FNV_PRIME));
        flags[n] = TOKEN_UNSPACED;
        n++;
        sentenceStart = false;
      } else if (isSentenceBreak(cp)) {
        sentenceStart = true;
      }
    }
    if (inWord) {
      hashes[n] = fmix32(h);
      flags[n] = (allDigits ? TOKEN_NUMBER : 0) | (capital && !sentenceStart ? TOKEN_ENTITY : 0);
      n++;
    }
    return { hashes: hashes.subarray(0, n), flags: flags.subarray(0, n), count: n };
  }

  /**
   * Distinct hashes of the k-token shingles, sorted ascending (view into a reused buffer).
   * Texts shorter than k tokens give one shingle of all their tokens; empty texts give none.
   */
  shingleHashes(tokens: Tokens, k: number): Uint32Array {
    const n = tokens.count;
    if (n === 0) return this.shingleBuf.subarray(0, 0);
    const count = n < k ? 1 : n - k + 1;
    const width = Math.min(n, k);
    if (count > this.shingleBuf.length) this.shingleBuf = new Uint32Array(2 ** Math.ceil(Math.log2(count)));
    const th = tokens.hashes;
    const out = this.shingleBuf;
    for (let i = 0; i < count; i++) {
      let h = 0x2f8a_1c3d;
      for (let j = 0; j < width; j++) h = mixStep(h, th[i + j]!);
      out[i] = fmix32(h ^ width);
    }
    const view = out.subarray(0, count);
    view.sort();
    let u = 0;
    for (let i = 0; i < count; i++) if (i === 0 || view[i] !== view[u - 1]) view[u++] = view[i]!;
    return out.subarray(0, u);
  }
}
