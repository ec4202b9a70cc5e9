import { describe, expect, it } from "vitest";
import { acceptHeader, judgeResponse, sniffRefusal } from "../../../shared/fetch/response-policy";

const html = { accept: "html" as const, conditional: false };
const feed = { accept: "feed" as const, conditional: false };

describe("judgeResponse", () => {
  it("maps statuses, and 304 only to a conditional request", () => {
    expect(judgeResponse(304, {}, { ...html, conditional: true }, 10)).toEqual({ kind: "not_modified" });
    expect(judgeResponse(304, {}, html, 10)).toMatchObject({
      kind: "refuse",
      refusal: { reason: "http_4xx" },
    });
    expect(judgeResponse(404, {}, html, 10)).toMatchObject({ refusal: { reason: "http_404" } });
    expect(judgeResponse(503, {}, html, 10)).toMatchObject({ refusal: { reason: "http_5xx" } });
    expect(judgeResponse(101, {}, html, 10)).toMatchObject({ refusal: { reason: "network_error" } });
  });

  it("reads allowed types, sniffs vague ones, refuses the rest and an oversized declared length", () => {
    const typed = (t: string) => ({ "content-type": t });
    expect(judgeResponse(200, typed("text/html; charset=utf-8"), html, 10)).toEqual({
      kind: "read",
      type: "text/html",
      sniff: false,
    });
    expect(judgeResponse(200, {}, html, 10)).toMatchObject({ kind: "read", sniff: true });
    expect(judgeResponse(200, typed("text/html"), feed, 10)).toMatchObject({ kind: "read", sniff: true });
    expect(judgeResponse(200, typed("image/png"), html, 10)).toMatchObject({
      refusal: { reason: "not_html" },
    });
    expect(judgeResponse(200, typed("image/png"), { ...html, contentTypes: ["*"] }, 10)).toMatchObject({
      kind: "read",
      sniff: false,
    });
    const big = { ...typed("text/html"), "content-length": "11" };
    expect(judgeResponse(200, big, html, 10)).toMatchObject({ refusal: { reason: "too_large" } });
    expect(judgeResponse(200, big, { ...html, truncate: true }, 10)).toMatchObject({ kind: "read" });
  });
});

describe("sniffRefusal and acceptHeader", () => {
  it("refuses a sniffed body unlike what was asked for", () => {
    const vague = { type: "text/plain", sniff: true };
    expect(sniffRefusal(Buffer.from("<rss/>"), vague, "feed")).toBeNull();
    expect(sniffRefusal(Buffer.from("<!doctype html><html>"), vague, "feed")).toMatchObject({
      reason: "not_html",
    });
    expect(sniffRefusal(Buffer.from("words"), { type: "text/plain", sniff: false }, "feed")).toBeNull();
    expect(acceptHeader({ accept: "html", contentTypes: ["*"] })).toBe("*/*");
    expect(acceptHeader({ accept: "feed" })).toContain("application/rss+xml");
  });
});
