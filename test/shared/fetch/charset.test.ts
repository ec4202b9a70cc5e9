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
  it("decodes the legacy multi-byte and single-byte encodings news sites still use", () => {
    const cases: [string, number[], string][] = [
      ["shift_jis", [0x93, 0xfa, 0x96, 0x7b], "日本"],
      ["gbk", [0xd6, 0xd0, 0xce, 0xc4], "中文"],
      ["gb18030", [0xd6, 0xd0, 0xce, 0xc4], "中文"],
      ["big5", [0xa4, 0xa4, 0xa4, 0xe5], "中文"],
      ["euc-kr", [0xc7, 0xd1, 0xb1, 0xb9], "한국"],
      ["euc-jp", [0xc6, 0xfc, 0xcb, 0xdc], "日本"],
      ["windows-1251", [0xcf, 0xf0, 0xe8], "При"],
      ["iso-8859-2", [0xb1, 0xe6], "ąć"],
      ["koi8-r", [0xf0, 0xd2, 0xc9], "При"],
    ];
    for (const [charset, raw, text] of cases) {
      expect(decodeBody(new Uint8Array(raw), `text/html; charset=${charset}`)).toEqual({ text, charset });
    }
  });
  it("falls back past labels it cannot decode: to the markup, then to UTF-8", () => {
    const meta = Buffer.concat([Buffer.from('<meta charset="windows-1251">'), Buffer.from([0xcf])]);
    expect(decodeBody(new Uint8Array(meta), "text/html; charset=x-klingon").charset).toBe("windows-1251");
    expect(decodeBody(bytes("é"), "text/html; charset=cp437")).toEqual({ text: "é", charset: "utf-8" });
    expect(decodeBody(bytes('<meta charset="iso-2022-kr">é'), "").charset).toBe("utf-8");
    expect(decodeBody(new Uint8Array([0x61, 0xff, 0x62]), "").text).toBe("a\ufffdb");
  });
});
