/** `storytrail extract` over hostile files: each bad file is named with its reason, the others still come out. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FETCH_LIMITS } from "../../../shared/fetch/http";

const repo = resolve(import.meta.dirname, "../../..");
const cli = (args: string[]) =>
  spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), ...args], {
    cwd: repo,
    encoding: "utf8",
    timeout: 120_000,
  });

const article = `<html><head><title>A fine story</title></head><body><article><h1>A fine story</h1><p>${Array.from(
  { length: 120 },
  (_, i) => `word${i}`,
).join(" ")}.</p></article></body></html>`;

describe("storytrail extract", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "storytrail-extract-"));
    // Expands to 4× the page cap (a 1 GiB bomb is the same file, longer); compresses to ~20 KB.
    writeFileSync(
      join(dir, "bomb.html.gz"),
      gzipSync(Buffer.alloc(4 * DEFAULT_FETCH_LIMITS.maxBytes, "<p>a</p>")),
    );
    writeFileSync(join(dir, "big.html"), Buffer.alloc(DEFAULT_FETCH_LIMITS.maxBytes + 1, " "));
    writeFileSync(join(dir, "good.html.gz"), gzipSync(article));
    writeFileSync(join(dir, "broken.html.gz"), Buffer.from([0x1f, 0x8b, 1, 2, 3]));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a gzip file that expands past the fetch cap, naming it, and extracts the others", () => {
    const files = ["bomb.html.gz", "big.html", "broken.html.gz", "good.html.gz"].map((f) => join(dir, f));
    const r = cli(["extract", ...files]);
    expect(r.status).toBe(1);
    const errors = r.stderr.trim().split("\n");
    expect(errors).toEqual([
      `${files[0]}: decompresses to more than the ${DEFAULT_FETCH_LIMITS.maxBytes}-byte page cap (the fetch cap); not extracted`,
      `${files[1]}: ${DEFAULT_FETCH_LIMITS.maxBytes + 1} bytes, more than the ${DEFAULT_FETCH_LIMITS.maxBytes}-byte page cap (the fetch cap); not extracted`,
      expect.stringMatching(new RegExp(`^${files[2]}: not valid gzip: `)),
    ]);
    const out = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ headline: "A fine story", word_count: 120 });
    // Record version 5's fields are printed too, null or empty when the page has none.
    expect(out[0]).toMatchObject({ headline_declared: null, kicker: null, credit: [] });
    // And version 6's: the page's one date is not ambiguous.
    expect(out[0]).toMatchObject({ date_order_flag: null });
  });

  it("names the file of a refused page in --input mode", () => {
    const list = join(dir, "list.jsonl");
    writeFileSync(
      list,
      `${JSON.stringify({ id: "b", path: "bomb.html.gz" })}\n${JSON.stringify({ id: "g", path: "good.html.gz" })}\n`,
    );
    const r = cli(["extract", "--input", list]);
    const out = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(out[0]).toMatchObject({ id: "b", path: join(dir, "bomb.html.gz") });
    expect(out[0].error).toContain("page cap");
    expect(out[1]).toMatchObject({ id: "g", headline: "A fine story" });
  });
});
