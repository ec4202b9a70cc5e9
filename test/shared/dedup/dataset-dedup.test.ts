/** Dedup of a JSONL dataset: every line that is not used is reported with its number and the reason. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ExtractionPool } from "../../../shared/backfill/extraction-pool";
import { type DuplicateLine, runDedup } from "../../../shared/dedup/dataset-dedup";

const DEV = resolve(import.meta.dirname, "../../../../shared/eval/dedup/corpus-dev.jsonl");

const story = (words: string) =>
  `${words} ${Array.from({ length: 120 }, (_, i) => `word${(i * 37) % 101}`).join(" ")}`;

describe("runDedup", () => {
  it("keeps the first record of a repeated id and reports the repeat with both line numbers", async () => {
    const lines = [
      JSON.stringify({ id: "a", text: story("harbour strike ends") }),
      JSON.stringify({ id: "b", text: story("council plants trees") }),
      JSON.stringify({ id: "a", text: story("a completely different story about elections") }),
      JSON.stringify({ id: "b", text: story("council plants trees") }),
    ];
    const dups: DuplicateLine[] = [];
    const result = await runDedup(lines, { onDuplicate: (d) => dups.push(d) });
    expect(dups).toEqual([
      { id: "a", line: 3, firstLine: 1, differs: true },
      { id: "b", line: 4, firstLine: 2, differs: false },
    ]);
    expect(result.duplicates).toBe(2);
    expect(result.assignments.map((a) => a.id)).toEqual(["a", "b"]);
    // The kept record is the first: "a" is still the harbour story, alone in its cluster.
    const fp = await result.store.getArticle("a");
    expect(fp).not.toBeNull();
    const again = await runDedup([lines[0]!, lines[1]!]);
    expect(result.assignments).toEqual(again.assignments);
  });

  it("explains a skipped line: its number and the JSON error's column, or the field at fault", async () => {
    const skips: [number, string][] = [];
    const result = await runDedup(
      [
        JSON.stringify({ id: "ok", text: story("fine") }),
        '[{"id": "x", "text": }',
        JSON.stringify({ text: "no id" }),
        JSON.stringify({ id: "y", text: 42 }),
        "",
      ],
      { onSkip: (n, why) => skips.push([n, why]) },
    );
    expect(result.skipped).toBe(3);
    expect(skips[0]?.[0]).toBe(2);
    expect(skips[0]?.[1]).toMatch(/^not JSON at column 22: /);
    expect(skips[1]).toEqual([3, "not an article: id: is required"]);
    expect(skips[2]?.[0]).toBe(4);
    expect(skips[2]?.[1]).toMatch(/^not an article: text: /);
    for (const [, why] of skips) expect(why).not.toMatch(/^\[/);
  });

  it("clusters the dedup dev corpus the same with fingerprints computed ahead in worker threads", async () => {
    const lines = readFileSync(DEV, "utf8").split("\n");
    const here = await runDedup(lines);
    const pool = await ExtractionPool.start(2);
    try {
      const ahead = await runDedup(lines, { fingerprintAhead: pool });
      expect(ahead.assignments).toEqual(here.assignments);
      expect(new Set(here.assignments.map((a) => a.cluster_id)).size).toBeLessThan(here.assignments.length);
      const id = here.assignments[0]!.id;
      expect((await ahead.store.getArticle(id))?.fingerprint).toEqual(
        (await here.store.getArticle(id))?.fingerprint,
      );
    } finally {
      await pool.close();
    }
  }, 120_000);
});
