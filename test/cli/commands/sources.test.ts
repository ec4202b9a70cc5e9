/**
 * `storytrail sources` as a user runs it (a child process) against a local data directory: a push
 * prints its diff and applies it (`--dry-run` only prints), `list` shows the set, `remove` takes a
 * source out, and a bad file or an unknown id exits with 2 naming the problem, nothing applied. On a
 * folder with no run, `list` and `remove` say so and create nothing, a dry run creates nothing, and a
 * push makes the folder a crawl's run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "../../..");
const bin = join(repo, "bin/storytrail.js");
const dir = mkdtempSync(join(tmpdir(), "storytrail-sources-"));
const dataDir = join(dir, "data");

function cli(...args: string[]) {
  return cliIn(dataDir, ...args);
}

function cliIn(folder: string, ...args: string[]) {
  return spawnSync(process.execPath, [bin, "sources", ...args, "--data-dir", folder], {
    cwd: repo,
    encoding: "utf8",
    timeout: 120_000,
  });
}

const source = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  publication: `Publisher ${id}`,
  homepage: `https://${id}.example/`,
  sitemaps: [`https://${id}.example/sitemap.xml`],
  ...extra,
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("storytrail sources", () => {
  it("pushes, lists, dry-runs a change, refuses bad input, and removes", () => {
    const first = cli("push", file("one.json", JSON.stringify({ sources: [source("a"), source("b")] })));
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toContain("+ a  Publisher a (1 sitemap(s), 0 feed(s), default schedule)");
    expect(first.stdout).toContain("2 added, 0 changed, 0 removed, 0 unchanged");

    const next = file("two.json", JSON.stringify([source("a", { schedule: "rate(1 hour)" }), source("c")]));
    const dry = cli("push", next, "--dry-run");
    expect(dry.stdout).toContain("~ a  schedule");
    expect(dry.stdout).toContain("+ c  ");
    expect(dry.stdout).toContain("- b  ");
    expect(dry.stdout).toContain("1 added, 1 changed, 1 removed, 0 unchanged\ndry run: nothing applied");
    expect(
      cli("list")
        .stdout.split("\n")
        .map((l) => l.split("  ")[0]),
    ).toEqual(["a", "b", ""]);

    // A file that is not JSON names its line and column; one that is invalid names the source and field.
    const broken = cli("push", file("broken.json", '{"sources": [\n  {"id": "a",}\n]}'));
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json: not valid JSON at line 2, column \d+/);
    const invalid = cli(
      "push",
      file("invalid.json", JSON.stringify([source("a", { schedule: "cron(0 5 L * ? *)" })])),
    );
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toContain('invalid.json: sources[0] ("a"): schedule:');

    expect(cli("push", next).status).toBe(0);
    const listed = JSON.parse(cli("list", "--json").stdout) as {
      sources: { id: string; schedule?: string }[];
    };
    expect(listed.sources.map((s) => [s.id, s.schedule])).toEqual([
      ["a", "rate(1 hour)"],
      ["c", undefined],
    ]);

    const unknown = cli("remove", "c", "nope");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("no configured source nope");
    expect(cli("remove", "c").stdout).toBe("1 removed\n");
    expect(cli("list").stdout).toMatch(/^a {2}Publisher a .*\n$/);
  }, 300_000);
});

describe("storytrail sources on a folder with no run", () => {
  it("list and remove refuse with exit 2, naming the command that makes a run, and create nothing", () => {
    const none = join(dir, "none");
    for (const args of [["list"], ["list", "--json"], ["remove", "a"]]) {
      const r = cliIn(none, ...args);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(
        `no folder ${none}: make one with \`storytrail sources push FILE --data-dir ${none}\``,
      );
      expect(existsSync(none)).toBe(false);
    }
  }, 120_000);

  it("a dry run prints every source as added and creates nothing; a push makes the folder a crawl's run", () => {
    const fresh = join(dir, "fresh");
    const sources = file("fresh.json", JSON.stringify([source("a")]));
    const dry = cliIn(fresh, "push", sources, "--dry-run");
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("1 added, 0 changed, 0 removed, 0 unchanged\ndry run: nothing applied");
    expect(existsSync(fresh)).toBe(false);

    const pushed = cliIn(fresh, "push", sources);
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(readFileSync(join(fresh, "storytrail-run.json"), "utf8")).toBe('{"kind":"crawl"}\n');
    expect(readdirSync(fresh).sort()).toEqual(["dynamodb", "storytrail-run.json"]);
    expect(cliIn(fresh, "list").stdout).toMatch(/^a {2}Publisher a .*\n$/);
  }, 300_000);
});
