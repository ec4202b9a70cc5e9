/**
 * One spelling per URL component. A component is read as the bytes it stands for (%XX escapes decoded,
 * and in a query `+` as the space application/x-www-form-urlencoded makes it) and written back with each
 * byte either raw or escaped by a fixed rule: `%41`, `A`; `%7e`, `~`; `%20`, `+` in a query all become
 * one form, while characters that delimit (`/` in a path, `&` `=` `+` in a query) stay escaped.
 */

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UNRESERVED = `${ALNUM}-._~`;

function rawTable(chars: string): readonly boolean[] {
  const table = new Array<boolean>(128).fill(false);
  for (const c of chars) table[c.charCodeAt(0)] = true;
  return table;
}

/**
 * Raw in both: `[` `]` `|` are not RFC 3986 URL characters, but the WHATWG parser, browsers and both
 * peers (w3lib, normalize-url) leave them raw, and PHP's `a[]=1` is common.
 */
const LOOSE = "[]|";
/**
 * Bytes written raw in a path segment: RFC 3986 pchar (unreserved, sub-delims, `:` `@`). Everything else,
 * `/` included (that is what keeps `%2F` apart from a separator), is escaped.
 */
const PATH_RAW = rawTable(`${UNRESERVED}!$&'()*+,;=:@${LOOSE}`);
/**
 * Bytes written raw in a query name or value: what the form encoding leaves meaningless. `&` `=` `+` delimit
 * or mean a space, `'` the WHATWG parser would escape again, and the rest are not URL characters.
 */
const QUERY_RAW = rawTable(`${UNRESERVED}!$()*,/:;?@${LOOSE}`);

const HEX = "0123456789ABCDEF";

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/**
 * The bytes a component stands for. A `%` that starts no escape is the byte `%` itself (written back as
 * `%25`, so that `%%37` cannot become a new escape `%7` once `%37` is decoded). After WHATWG parsing a
 * path or query is ASCII; anything else is taken as UTF-8.
 */
function componentBytes(s: string, plusIsSpace: boolean): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code === 37 && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2))) {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (code === 43 && plusIsSpace) {
      bytes.push(32);
    } else if (code < 128) {
      bytes.push(code);
    } else {
      const cp = s.codePointAt(i) ?? code;
      if (cp > 0xffff) i++;
      bytes.push(...Buffer.from(String.fromCodePoint(cp), "utf8"));
    }
  }
  return bytes;
}

function writeBytes(bytes: readonly number[], raw: readonly boolean[], plusIsSpace: boolean): string {
  let out = "";
  for (const b of bytes) {
    if (raw[b]) out += String.fromCharCode(b);
    else if (b === 32 && plusIsSpace) out += "+";
    else out += `%${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return out;
}

/** One path segment (between `/`s) in its canonical spelling. */
export function canonicalSegment(segment: string): string {
  return writeBytes(componentBytes(segment, false), PATH_RAW, false);
}

/** A query name or value (between `&`s and `=`) in its canonical spelling, and the text it stands for. */
export function canonicalQueryPart(part: string): { spelling: string; text: string } {
  const bytes = componentBytes(part, true);
  return { spelling: writeBytes(bytes, QUERY_RAW, true), text: Buffer.from(bytes).toString("utf8") };
}
