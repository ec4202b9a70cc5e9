/**
 * Character set of a fetched body, in the order the HTML standard uses: byte order mark, then the HTTP
 * Content-Type charset, then <meta charset> / http-equiv or the XML declaration, else UTF-8.
 */
import { TextDecoder } from "node:util";

/** How far into the body <meta charset> and <?xml encoding?> are looked for. */
const PRESCAN_BYTES = 4096;

/**
 * A decoder for `charset`, or null when it cannot be decoded. Made per call, not cached in module state:
 * 1.6–6 µs each (90 µs for a label that throws), a few per page.
 */
function decoder(charset: string): TextDecoder | null {
  try {
    return new TextDecoder(charset);
  } catch {
    // Not a WHATWG label, or one this build cannot decode (or the "replacement" encoding).
    return null;
  }
}

/**
 * A supported, normalised charset name for `label`, or null when it cannot be decoded. The WHATWG
 * Encoding Standard's label table (TextDecoder, with Node's full ICU) maps labels the way browsers
 * do: iso-8859-1, latin1 and us-ascii to windows-1252, gb2312 to gbk, x-sjis to shift_jis.
 */
export function normaliseCharset(label: string | null | undefined): string | null {
  if (!label) return null;
  const l = label
    .trim()
    .replace(/^["']|["']$/g, "")
    .toLowerCase();
  if (!l) return null;
  return decoder(l)?.encoding ?? null;
}

export function charsetFromContentType(contentType: string | null | undefined): string | null {
  const m = /;\s*charset\s*=\s*("?)([^";,\s]+)\1/i.exec(contentType ?? "");
  return m ? normaliseCharset(m[2]) : null;
}

function charsetFromBom(bytes: Uint8Array): { charset: string; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: "utf-8", length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: "utf-16be", length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: "utf-16le", length: 2 };
  return null;
}

/** <meta charset="…">, <meta http-equiv="Content-Type" content="…; charset=…"> or <?xml … encoding="…"?>. */
export function charsetFromMarkup(bytes: Uint8Array): string | null {
  const head = Buffer.from(
    bytes.buffer,
    bytes.byteOffset,
    Math.min(bytes.byteLength, PRESCAN_BYTES),
  ).toString("latin1");
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return normaliseCharset(xml[1]);
  // Covers both <meta charset="x"> and the charset= inside an http-equiv content attribute.
  for (const meta of head.matchAll(/<meta\b[^>]*?\bcharset\s*=\s*["']?([^"'\s/>;]+)/gi)) {
    const cs = normaliseCharset(meta[1]);
    if (cs) return cs;
  }
  return null;
}

/** Never throws: malformed sequences become U+FFFD, and a leading BOM is dropped. */
function decode(bytes: Uint8Array, charset: string): string {
  return (decoder(charset) ?? decoder("utf-8")!).decode(bytes);
}

/**
 * Decodes `bytes`. UTF-16 declared in markup is ignored (an ASCII-compatible prescan cannot be UTF-16);
 * anything unknown falls back to UTF-8, which never throws (bad sequences become U+FFFD).
 */
export function decodeBody(
  bytes: Uint8Array,
  contentType: string | null | undefined,
): { text: string; charset: string } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom = charsetFromBom(buf);
  if (bom) return { text: decode(buf.subarray(bom.length), bom.charset), charset: bom.charset };
  let charset = charsetFromContentType(contentType);
  if (!charset) {
    const declared = charsetFromMarkup(buf);
    charset = declared && !declared.startsWith("utf-16") ? declared : null;
  }
  charset ??= "utf-8";
  return { text: decode(buf, charset), charset };
}
