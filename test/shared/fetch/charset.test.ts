import { describe, expect, it } from "vitest";
import {
  charsetFromContentType,
  charsetFromMarkup,
  decodeBody,
  normaliseCharset,
} from "../../../shared/fetch/charset";

const bytes = (s: string, enc: BufferEncoding = "utf8") => new Uint8Array(Buffer.from(s, enc));

describe("charset detection", () => {
  it("reads the Content-Type charset", () => {
    expect(charsetFromContentType("text/html; charset=UTF-8")).toBe("utf-8");
    expect(charsetFromContentType('text/html;charset="ISO-8859-1"')).toBe("windows-1252");
    expect(charsetFromContentType("text/html")).toBeNull();
    expect(charsetFromContentType("text/html; charset=x-klingon")).toBeNull();
  });
  it("reads <meta charset>, http-equiv and the XML declaration", () => {
    expect(charsetFromMarkup(bytes('<html><head><meta charset="shift_jis">'))).toBe("shift_jis");
    expect(
      charsetFromMarkup(bytes('<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">')),
    ).toBe("koi8-r");
    expect(charsetFromMarkup(bytes('<?xml version="1.0" encoding="ISO-8859-15"?><rss/>'))).toBe(
      "iso-8859-15",
    );
    expect(charsetFromMarkup(bytes("<html><body>no declaration</body></html>"))).toBeNull();
  });
  it("normalises labels the way browsers do", () => {
    expect(normaliseCharset("latin1")).toBe("windows-1252");
    expect(normaliseCharset("UTF8")).toBe("utf-8");
    expect(normaliseCharset("bogus")).toBeNull();
  });
  it("decodes: BOM over header over markup, UTF-8 by default", () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from("é")]);
    expect(decodeBody(bom, "text/html; charset=iso-8859-1")).toEqual({ text: "é", charset: "utf-8" });
    expect(decodeBody(bytes("caf\xe9", "latin1"), "text/html; charset=iso-8859-1").text).toBe("café");
    const meta = Buffer.concat([
      Buffer.from('<meta charset="windows-1251">'),
      Buffer.from([0xcf, 0xf0, 0xe8]),
    ]);
    expect(decodeBody(new Uint8Array(meta), "text/html").text).toContain("При");
    expect(decodeBody(bytes("plain é"), "")).toEqual({ text: "plain é", charset: "utf-8" });
    // A markup claim of UTF-16 in an ASCII-compatible prescan is wrong by construction.
    expect(decodeBody(bytes('<meta charset="utf-16">é'), "text/html").charset).toBe("utf-8");
  });
});
