/** The command line as a newcomer meets it: help on every command, and the demo crawl's summary. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "../..");
const packageJson = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { version: string };
const cli = (args: string[], timeout = 120_000, env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), ...args], {
    cwd: repo,
    encoding: "utf8",
    timeout,
    env,
  });
/** Years ahead of any calendar this suite runs on: the demo is dated by the functions' clock, not the
 * calendar, so it finds the same stories (the tail test runs it on the wall clock). */
const YEARS_AHEAD = { ...process.env, STORYTRAIL_NOW: "2031-07-15T23:30:00Z" };

/** True when `port` is free on every demo outlet's loopback address. */
async function freeOnDemoHosts(port: number): Promise<boolean> {
  for (const host of ["127.0.0.1", "127.0.0.2", "127.0.0.3"]) {
    const free = await new Promise<boolean>((ok) => {
      const srv = createServer();
      srv.once("error", () => ok(false));
      srv.listen(port, host, () => srv.close(() => ok(true)));
    });
    if (!free) return false;
  }
  return true;
}

/**
 * A demo port of this test's own, below the ephemeral ranges: two checkouts running this test at once
 * (as on a shared CI machine) must not share the demo site, whose URLs carry its port.
 */
async function demoPort(): Promise<string> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await freeOnDemoHosts(port)) return String(port);
  }
}

describe("storytrail CLI", () => {
  it("has --help on every command", () => {
    const top = cli(["--help"]);
    expect(top.status).toBe(0);
    for (const cmd of [
      "crawl",
      "url",
      "extract",
      "dedup",
      "reextract",
      "quality",
      "redrive",
      "tail",
      "refile-lsh",
    ]) {
      expect(top.stdout).toContain(cmd);
      const help = cli([cmd, "--help"]);
      expect(help.status, `${cmd} --help: ${help.stderr}`).toBe(0);
      expect(help.stdout).toMatch(/^Usage: storytrail /);
    }
  });

  it("prints the package's version with --version", () => {
    const r = cli(["--version"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(packageJson.version);
  });

  it("refuses a crawl without sources, with a clear message", () => {
    const r = cli(["crawl"]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("--sources FILE or --demo");
  });

  it("refuses a retry delay that is not a whole number of seconds SQS can hold", () => {
    for (const bad of ["-1", "1.5", "soon", "50000"]) {
      const r = cli(["crawl", "--demo", "--retry-delay", bad]);
      expect(r.status, bad).not.toBe(0);
      expect(r.stderr).toContain("--retry-delay must be a whole number of seconds from 0 to 43200");
    }
  });

  it("refuses to run the demo on a port another process holds, rather than on another port", async () => {
    const port = await demoPort();
    const holder = createServer().listen(Number(port), "127.0.0.2");
    await new Promise((ok) => holder.once("listening", ok));
    try {
      const r = cli([
        "crawl",
        "--demo",
        "--demo-port",
        port,
        "--data-dir",
        mkdtempSync(join(tmpdir(), "st-")),
      ]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`port ${port} is taken on 127.0.0.2`);
    } finally {
      holder.close();
    }
  });

  it("runs the demo crawl end to end, finds nothing new the second time, and re-extracts its samples", async () => {
    const dir = mkdtempSync(join(tmpdir(), "storytrail-demo-"));
    const port = await demoPort();
    try {
      const r = cli(
        ["crawl", "--demo", "--demo-port", port, "--json", "--data-dir", dir],
        170_000,
        YEARS_AHEAD,
      );
      expect(r.status, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout);
      expect(summary).toMatchObject({
        claimed: 6,
        articles: 5,
        distinct_articles: 4,
        failed: 1,
        pending: 0,
        clusters: 2,
        clustered_articles: 4,
      });
      expect(summary.failure_reasons).toEqual({ robots_disallowed: 1 });
      expect(summary.articles + summary.failed + summary.pending).toBe(summary.claimed);
      expect(summary.raw_samples).toBe(4); // the demo keeps every page's HTML

      // Tomorrow's run: state persisted in the data directory, so nothing is new.
      const again = JSON.parse(
        cli(["crawl", "--demo", "--demo-port", port, "--json", "--data-dir", dir], 170_000, YEARS_AHEAD)
          .stdout,
      );
      expect(again).toMatchObject({ claimed: 0, clusters: 2 });

      const re = cli(["reextract", "--data-dir", dir], 170_000);
      expect(re.status, re.stderr).toBe(0);
      expect(re.stdout).toMatch(/^4 raw samples, 4 with a stored article: 4 unchanged, 0 changed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
