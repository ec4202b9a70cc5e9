import { describe, expect, it } from "vitest";
import { measureArchiveBytes } from "../../bench/archive-bytes";

describe("the archive's Parquet bytes per article", () => {
  it("writes a day's synthetic articles and their stories through the export's writer and reads the footers back", async () => {
    const r = await measureArchiveBytes(2000);
    expect(r.articles).toBe(2000);
    // A third of the synthetic articles are copies of an earlier one: fewer stories than articles.
    expect(r.stories).toBeGreaterThan(1000);
    expect(r.stories).toBeLessThan(2000);
    // The codec as the files' footers name it.
    expect(r.codecs.length).toBeGreaterThan(0);
    for (const c of r.codecs)
      expect(["UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD", "BROTLI", "LZ4_RAW"]).toContain(c);
    // The body is most of an article, compressed below its own length; the other columns are measured apart.
    expect(r.articleBytes).toBeLessThan(r.bodyBytes);
    expect(r.articleBytesWithoutBody).toBeGreaterThan(0);
    expect(r.articleBytesWithoutBody).toBeLessThan(r.articleBytes / 2);
    expect(r.storyBytes).toBeGreaterThan(0);
    // The same seed writes the same files.
    const again = await measureArchiveBytes(2000);
    expect(again.articleBytes).toBe(r.articleBytes);
    expect(again.storyBytes).toBe(r.storyBytes);
  });
});
