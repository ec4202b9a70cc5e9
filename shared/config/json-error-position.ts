/**
 * Where a JSON text stops being JSON. V8's messages name a position for some errors and not others
 * (`Unexpected token 'x', "…" is not valid JSON` has none), and differ between Node versions, so the
 * offset is found by bisection: every prefix that ends before the error either parses or fails only
 * because it ends early; every prefix that contains it fails there.
 */

/** True when `prefix` is JSON or a valid beginning of JSON (it only lacks an ending). */
function validSoFar(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/Unexpected end of JSON input/i.test(message)) return true;
    // "Unterminated string in JSON at position 3" for a 3-character prefix: it failed at its end.
    const at = /at position (\d+)/.exec(message);
    return at !== null && Number(at[1]) >= prefix.length;
  }
}

export interface JsonErrorPosition {
  /** 0-based offset of the first character that cannot continue the JSON text. */
  readonly offset: number;
  /** 1-based line and column of that character. */
  readonly line: number;
  readonly column: number;
}

/** The position of the first error in `text`, or null when `text` is valid JSON. */
export function jsonErrorPosition(text: string): JsonErrorPosition | null {
  try {
    JSON.parse(text);
    return null;
  } catch {}
  let offset: number;
  if (validSoFar(text)) {
    offset = text.length; // the text ends too early
  } else {
    // Smallest n whose prefix of n characters is no longer valid; the error is its last character.
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (validSoFar(text.slice(0, mid))) lo = mid + 1;
      else hi = mid;
    }
    offset = Math.max(0, lo - 1);
  }
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return { offset, line, column };
}
