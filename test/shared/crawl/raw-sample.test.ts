import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gzipRawHtml, sampled } from "../../../shared/crawl/raw-sample";

describe("raw samples", () => {
  it("compresses HTML to the bytes the stores wrote from its text (zlib's default level)", () => {
    const html = `<html><body><p>Caf\u00e9 cr\u00e8me</p>${"<p>The council met on Tuesday.</p>".repeat(200)}</body></html>`;
    const bytes = gzipRawHtml(html);
    expect(Buffer.from(bytes).equals(gzipSync(Buffer.from(html, "utf8")))).toBe(true);
    expect(gunzipSync(bytes).toString("utf8")).toBe(html);
    // Another level gives other bytes: the comparison above can fail.
    expect(Buffer.from(bytes).equals(gzipSync(html, { level: 1 }))).toBe(false);
  });

  it("samples an article by its id: always the same answer, about the rate's share", () => {
    const ids = Array.from({ length: 2000 }, (_, i) =>
      ((i * 2654435761) % 0x1_0000_0000).toString(16).padStart(8, "0"),
    );
    expect(ids.map((id) => sampled(id, 0.1))).toEqual(ids.map((id) => sampled(id, 0.1)));
    const share = ids.filter((id) => sampled(id, 0.1)).length / ids.length;
    expect(share).toBeGreaterThan(0.08);
    expect(share).toBeLessThan(0.12);
    expect(ids.some((id) => sampled(id, 0))).toBe(false);
    expect(ids.every((id) => sampled(id, 1))).toBe(true);
  });
});
