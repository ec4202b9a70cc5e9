/**
 * Each command's common user errors, as a user meets them (a child process): one or two lines on
 * stderr naming the problem and the command or flag that fixes it, exit code 2, no stack trace unless
 * asked for (--verbose, STORYTRAIL_DEBUG=1). Commands that read a run create nothing where there is none.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "../..");
const home = mkdtempSync(join(tmpdir(), "storytrail-user-errors-"));

function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), ...args], {
    cwd: home,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, STORYTRAIL_DEBUG: "", ...env },
  });
}

/** Every file and folder under `dir`, relative to it. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

afterAll(() => rmSync(home, { recursive: true, force: true }));

/** [what the user typed, text the message must hold (the fix)]. */
const cases: [string[], string][] = [
  [["export", "--out", "out"], "storytrail crawl --sources FILE --data-dir .storytrail"],
  [["export", "--out", "out", "--demo"], "--data-dir .storytrail/demo"],
  [["export"], "storytrail export --help"],
  [["export", "--format", "xlsx", "--out", "out"], "--format must be one or more of"],
  [["report", "--data-dir", "nowhere"], "storytrail crawl --sources FILE --data-dir nowhere"],
  [["tail", "--data-dir", "nowhere", "--once"], "storytrail crawl --sources FILE --data-dir nowhere"],
  [["tail", "--from", "later"], "--from must be 'start' or 'now'"],
  [["tail", "--raw", "--json"], "give one of them"],
  [["quality", "--data-dir", "empty"], "storytrail crawl --sources FILE --data-dir empty"],
  [["reextract", "--data-dir", "nowhere"], "storytrail crawl --sources FILE --data-dir nowhere"],
  [["sources", "list"], "storytrail sources push FILE --data-dir .storytrail"],
  [["sources", "list", "--json", "--data-dir", "empty"], "storytrail sources push FILE --data-dir empty"],
  [["sources", "remove", "a"], "storytrail sources push FILE --data-dir .storytrail"],
  [["crawl"], "--sources FILE or --demo"],
  [["crawl", "--sources", "missing.json"], "missing.json: cannot read it"],
  [["crawl", "--demo", "--bogus"], "storytrail crawl --help"],
  [["import", "--warc", "missing.warc"], "missing.warc: no such file"],
  [["import"], "storytrail import --help"],
  [["demo", "--at", "yesterday"], "--at must be an ISO 8601 instant"],
  [["demo", "--port", "x"], "--port must be a port number"],
  [["nonsense"], "storytrail --help"],
];

describe("user errors", () => {
  mkdirSync(join(home, "empty"));

  for (const [args, fix] of cases) {
    it(`storytrail ${args.join(" ")}: exit 2, at most two lines naming the fix, no trace, nothing created`, () => {
      const before = listing(home);
      const r = cli(args);
      expect(r.status, r.stderr).toBe(2);
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines.length, r.stderr).toBeLessThanOrEqual(2);
      expect(r.stderr).not.toMatch(/^ {4}at /m);
      expect(r.stderr).toContain(fix);
      expect(listing(home)).toEqual(before);
    });
  }

  it("storytrail demo with an invalid STORYTRAIL_NOW: exit 2, the setting named, no trace", () => {
    const r = cli(["demo"], { STORYTRAIL_NOW: "yesterday" });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trimEnd().split("\n").length).toBeLessThanOrEqual(2);
    expect(r.stderr).toContain("STORYTRAIL_NOW must be an ISO 8601 instant");
    expect(r.stderr).not.toMatch(/^ {4}at /m);
  });

  it("shows the stack trace with --verbose or STORYTRAIL_DEBUG=1", () => {
    for (const r of [
      cli(["export", "--out", "out", "--verbose"]),
      cli(["export", "--out", "out"], { STORYTRAIL_DEBUG: "1" }),
    ]) {
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("no folder .storytrail");
      expect(r.stderr).toMatch(/^ {4}at /m);
    }
  });

  it("points a read of the default folder at the folder below it that holds a run", () => {
    // What a run leaves: DynamoDB Local's database file (shared) and the marker naming the run's kind.
    const demo = join(home, ".storytrail", "demo");
    mkdirSync(join(demo, "dynamodb"), { recursive: true });
    writeFileSync(join(demo, "dynamodb", "shared-local-instance.db"), "");
    writeFileSync(join(demo, "storytrail-run.json"), '{"kind":"demo"}\n');
    try {
      const r = cli(["report"]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("no run in .storytrail (no tables there); .storytrail/demo holds one");
      expect(r.stderr).toContain("use --data-dir .storytrail/demo");
      // A run of another kind is refused there, and told the folder of its own.
      const mixed = cli(["crawl", "--demo", "--data-dir", ".storytrail/demo"]);
      expect(mixed.status).toBe(2);
      expect(mixed.stderr.trimEnd().split("\n").length).toBeLessThanOrEqual(2);
      expect(mixed.stderr).toContain(".storytrail/demo holds a run of `storytrail demo`");
      expect(mixed.stderr).toContain("--data-dir .storytrail/crawl-demo");
    } finally {
      rmSync(join(home, ".storytrail"), { recursive: true, force: true });
    }
  });
});
