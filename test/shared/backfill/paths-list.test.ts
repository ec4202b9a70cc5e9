import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { PathsListError, parsePathsList } from "../../../shared/backfill/paths-list";

describe("parsePathsList", () => {
  it("reads a gzip list's keys in order, once each, without comments or blank lines", () => {
    const list = gzipSync("# CC-NEWS\ncrawl-data/a.warc.gz\n\ncrawl-data/b.warc.gz\ncrawl-data/a.warc.gz\n");
    expect(parsePathsList(list, "list")).toEqual(["crawl-data/a.warc.gz", "crawl-data/b.warc.gz"]);
  });

  it("refuses a gzip list that expands past its cap instead of inflating it whole", () => {
    const bomb = gzipSync(Buffer.alloc(17 * 1024 * 1024, 0x0a)); // 17 MiB of newlines, ~17 KB compressed
    expect(() => parsePathsList(bomb, "bomb.gz")).toThrow(PathsListError);
    expect(() => parsePathsList(bomb, "bomb.gz")).toThrow(/expands past 16777216 bytes/);
  });
});
