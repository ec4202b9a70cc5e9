/** `storytrail dedup` as a user runs it: repeated ids and skipped lines are explained on stderr. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "../../..");

it("storytrail dedup reports repeated ids and skipped lines with line numbers and reasons", () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-dedup-"));
  try {
    const file = join(dir, "articles.jsonl");
    writeFileSync(
      file,
      [
        JSON.stringify({ id: "a", text: "Dock workers end the strike after a wage deal." }),
        "[not json",
        JSON.stringify({ id: "a", text: "Something else entirely." }),
        JSON.stringify({ title: "no id" }),
      ].join("\n"),
    );
    const r = spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), "dedup", "--input", file], {
      cwd: repo,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual(["a"]);
    expect(r.stderr).toContain(
      'line 3: id "a" already on line 1 with a different title or text; kept line 1',
    );
    expect(r.stderr).toMatch(/line 2: skipped, not JSON at column 3: /);
    expect(r.stderr).toContain("line 4: skipped, not an article: id: is required");
    expect(r.stderr).not.toContain("skipped ([)");
    const missing = spawnSync(
      process.execPath,
      [join(repo, "bin/storytrail.js"), "dedup", "--input", join(dir, "nope")],
      {
        cwd: repo,
        encoding: "utf8",
      },
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("nope");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
