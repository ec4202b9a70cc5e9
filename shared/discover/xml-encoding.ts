/**
 * The character encoding of an XML document from its bytes, per XML 1.0 appendix F: a byte order mark
 * first, then the pattern of the first four bytes (`<` and `?` of `<?xml`, or of any first character,
 * spread over two or four bytes with zeros), then the declared encoding. The UTF-16 and UTF-32 families
 * are told here; everything ASCII-compatible is left to fetch's decodeBody (HTTP charset, then the XML
 * declaration, else UTF-8). Node's TextDecoder has no UTF-32 (the WHATWG Encoding Standard dropped it),
 * so that is decoded here: 4 bytes per code point, anything out of range becomes U+FFFD.
 */
import { TextDecoder } from "node:util";
import { charsetFromContentType, decodeBody } from "../fetch/charset";

type WideEncoding = "utf-16le" | "utf-16be" | "utf-32le" | "utf-32be";

/** The UTF-16/32 encoding `bytes` are in, and the length of their byte order mark; null for any other. */
export function wideXmlEncoding(bytes: Uint8Array): { encoding: WideEncoding; bom: number } | null {
  if (bytes.length < 2) return null;
  const [b0, b1, b2, b3] = [bytes[0]!, bytes[1]!, bytes[2] ?? -1, bytes[3] ?? -1];
  // Byte order marks (UTF-32LE's FF FE 00 00 before UTF-16LE's FF FE).
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return { encoding: "utf-32be", bom: 4 };
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return { encoding: "utf-32le", bom: 4 };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: "utf-16be", bom: 2 };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: "utf-16le", bom: 2 };
  // No mark: an XML document starts with an ASCII character ("<", or white space), and zeros never occur
  // in XML text, so where the zeros sit names the encoding (appendix F's 00 00 00 3C, 3C 00 3F 00 …).
  if (b0 === 0 && b1 === 0 && b2 === 0 && b3 > 0) return { encoding: "utf-32be", bom: 0 };
  if (b0 > 0 && b1 === 0 && b2 === 0 && b3 === 0) return { encoding: "utf-32le", bom: 0 };
  if (b0 === 0 && b1 > 0 && b2 === 0 && b3 > 0) return { encoding: "utf-16be", bom: 0 };
  if (b0 > 0 && b1 === 0 && b2 > 0 && b3 === 0) return { encoding: "utf-16le", bom: 0 };
  return null;
}

/** Code points per String.fromCodePoint call (its argument list is bounded by the stack). */
const CHUNK = 8192;

function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const whole = bytes.byteLength - (bytes.byteLength % 4);
  const parts: string[] = [];
  let codes: number[] = [];
  for (let i = 0; i < whole; i += 4) {
    const cp = view.getUint32(i, littleEndian);
    codes.push(cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0xfffd : cp);
    if (codes.length === CHUNK) {
      parts.push(String.fromCodePoint(...codes));
      codes = [];
    }
  }
  if (whole < bytes.byteLength) codes.push(0xfffd); // a truncated last code point
  parts.push(String.fromCodePoint(...codes));
  return parts.join("");
}

/**
 * The text of an XML document's bytes and the encoding it was read in. `contentType` is the response's
 * Content-Type, whose charset counts for ASCII-compatible bytes only (a BOM or the zero pattern wins:
 * a charset=utf-16 label on bytes without zeros is wrong). Never throws; bad sequences become U+FFFD.
 */
export function decodeXml(
  bytes: Uint8Array,
  contentType?: string | null,
): { text: string; encoding: string } {
  const wide = wideXmlEncoding(bytes);
  if (wide) {
    const body = bytes.subarray(wide.bom);
    const text = wide.encoding.startsWith("utf-32")
      ? decodeUtf32(body, wide.encoding === "utf-32le")
      : new TextDecoder(wide.encoding, { ignoreBOM: true }).decode(body);
    return { text, encoding: wide.encoding };
  }
  const labelled = charsetFromContentType(contentType);
  const usable = labelled?.startsWith("utf-16") ? null : contentType;
  const { text, charset } = decodeBody(bytes, usable);
  return { text, encoding: charset };
}
