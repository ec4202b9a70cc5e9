/**
 * `storytrail crawl` as a user runs it (a child process): bad sources files, the environment's settings,
 * and signals that must end the run cleanly without leaving an emulator behind.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { DynamoDBRecord } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeClusterStreamRecord } from "../../../shared/consumer/decode-stream-record";
import { StoryView } from "../../../shared/consumer/story-view";
import { type NewsServer, send, startNewsServer, urlset } from "../../support/news-server";

const repo = resolve(import.meta.dirname, "../../..");
const bin = join(repo, "bin/storytrail.js");

const words = (n: number, seed: string) =>
  Array.from({ length: n }, (_, i) => `${seed}${(i * 7919) % 1000}`).join(" ");
const page = (title: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title>
<meta property="article:published_time" content="2026-11-30T10:00:00Z"></head>
<body><article><h1>${title}</h1><p>${words(300, title.slice(0, 3))}</p></article></body></html>`;

function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: repo,
    encoding: "utf8",
    timeout: 150_000,
    env: { ...process.env, ...env },
  });
}

/** The CLI in a child process, without blocking this one (whose loopback site it crawls). */
function cliAsync(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((ok) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repo, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.once("exit", (status) => ok({ status, stdout, stderr }));
  });
}

/** Every process below `pid` (children, grandchildren), from /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(d), ppid);
    } catch {}
  }
  const out: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const [child, parent] of parentOf) if (frontier.includes(parent)) next.push(child);
    out.push(...next);
    frontier = next;
  }
  return out;
}

/** Alive and not a zombie waiting for its reaper. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function waitFor(child: ChildProcess, text: RegExp, stderr: { text: string }): Promise<void> {
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no ${text} in: ${stderr.text}`)), 170_000);
    const check = () => {
      if (text.test(stderr.text)) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stderr?.on("data", check);
    child.once("exit", () => {
      clearTimeout(timer);
      fail(new Error(`exited before ${text}: ${stderr.text}`));
    });
  });
}

describe("storytrail crawl", () => {
  let site: NewsServer;
  let dir: string;
  /** Whether /never answers (it holds every request until told to); called when one arrives. */
  const never = { answer: false, arrived: () => {} };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "storytrail-crawl-"));
    site = await startNewsServer({
      "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n"),
      "/a": send("text/html; charset=utf-8", page("Alpha story")),
      "/b": send("text/html; charset=utf-8", page("Bravo story")),
      // Pages that answer only after a while, so that a signal arrives while the run is fetching.
      "/slow": (_req, res) => {
        setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end(page("Slow story")), 1500);
      },
    });
    // A publisher that never answers this page (until a test says so), holding the request open.
    site.route("/never", (_req, res) => {
      never.arrived();
      if (never.answer) res.writeHead(200, { "content-type": "text/html" }).end(page("Never story"));
    });
    site.route("/sitemap.xml", send("application/xml", urlset([site.url("/a"), site.url("/b")])));
    site.route("/never-sitemap.xml", send("application/xml", urlset([site.url("/never")])));
    const slow = Array.from({ length: 30 }, (_, i) => site.url(`/slow?i=${i}`));
    site.route("/slow-sitemap.xml", send("application/xml", urlset(slow)));
    const source = (sitemap: string) => ({
      sources: [
        { id: "t", publication: "Test Times", homepage: site.url("/"), sitemaps: [site.url(sitemap)] },
      ],
    });
    writeFileSync(join(dir, "sources.json"), JSON.stringify(source("/sitemap.xml")));
    writeFileSync(join(dir, "slow.json"), JSON.stringify(source("/slow-sitemap.xml")));
    writeFileSync(join(dir, "never.json"), JSON.stringify(source("/never-sitemap.xml")));
    writeFileSync(
      join(dir, "broken.json"),
      '{\n  "sources": [\n    { "id": "t", "publication": "Test Times",, "homepage": "http://x/" }\n  ]\n}\n',
    );
  });

  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("names the file, line and column of a sources file that is not JSON, and exits with 2", () => {
    const file = join(dir, "broken.json");
    const r = cli(["crawl", "--sources", file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain("line 3, column 46");
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it("exits with 2 and names the file for a sources file that is missing or invalid", () => {
    const missing = cli(["crawl", "--sources", join(dir, "nope.json")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("nope.json");
    writeFileSync(join(dir, "bad-source.json"), JSON.stringify({ sources: [{ id: "x" }] }));
    const invalid = cli(["crawl", "--sources", join(dir, "bad-source.json")]);
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toContain("bad-source.json");
    expect(invalid.stderr).toContain('sources[0] ("x"): publication: is required');
  });

  it("refuses a malformed STORYTRAIL_* setting in the environment", () => {
    const file = join(dir, "sources.json");
    const r = cli(["crawl", "--sources", file], { STORYTRAIL_RAW_SAMPLE_RATE: "lots" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("STORYTRAIL_RAW_SAMPLE_RATE");
  });

  it("obeys STORYTRAIL_ALLOW_PRIVATE_ADDRESSES from the environment, as --allow-private", async () => {
    const args = ["crawl", "--sources", join(dir, "sources.json"), "--json", "--retry-delay", "0"];
    const closed = await cliAsync([...args, "--data-dir", join(dir, "closed")]);
    expect(closed.status, closed.stderr).toBe(0);
    // Without the setting a loopback site is refused, and the refusal is named as such.
    expect(JSON.parse(closed.stdout).sources[0].problem_reasons).toEqual({ blocked_address: 1 });
    const open = await cliAsync([...args, "--data-dir", join(dir, "open")], {
      STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
      STORYTRAIL_MIN_HOST_DELAY_MS: "0",
    });
    expect(open.status, open.stderr).toBe(0);
    expect(JSON.parse(open.stdout), open.stdout).toMatchObject({
      claimed: 2,
      articles: 2,
      failed: 0,
      pending: 0,
    });
  });

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`ends the run on ${signal}: stops every emulator, keeps what was done, exits with ${code}`, async () => {
      if (process.platform !== "linux") return; // reads /proc
      const dataDir = join(dir, `signal-${signal}`);
      const child = spawn(
        process.execPath,
        [
          bin,
          "crawl",
          "--sources",
          join(dir, "slow.json"),
          "--json",
          "--allow-private",
          "--data-dir",
          dataDir,
        ],
        { cwd: repo, env: { ...process.env, STORYTRAIL_MIN_HOST_DELAY_MS: "0" } },
      );
      const stderr = { text: "" };
      let stdout = "";
      child.stderr.on("data", (d) => {
        stderr.text += d;
      });
      child.stdout.on("data", (d) => {
        stdout += d;
      });
      const exited = new Promise<number | null>((ok) => child.once("exit", (c) => ok(c)));
      await waitFor(child, /enqueued 30 URLs/, stderr);
      const children = descendants(child.pid!);
      expect(children.length).toBeGreaterThanOrEqual(2); // DynamoDB Local (java) and fauxqs
      child.kill(signal);
      const exitCode = await exited;
      expect(exitCode, stderr.text).toBe(code);
      expect(children.filter(alive)).toEqual([]);
      // The summary of what was done before the signal is still printed, and the state kept.
      const summary = JSON.parse(stdout);
      expect(summary.interrupted).toBe(signal);
      expect(summary.claimed).toBe(30);
      expect(summary.articles + summary.failed + summary.pending).toBe(30);
      expect(existsSync(join(dataDir, "dynamodb", "shared-local-instance.db"))).toBe(true);
      // What was still queued waits in the data directory for the next run (fauxqs keeps nothing).
      if (summary.pending > 0) expect(existsSync(join(dataDir, "sqs", "fetch.jsonl"))).toBe(true);
    }, 300_000); // java starts slowly on a loaded machine: the wait is for readiness, not a timing claim
  }

  it("ends within 5 s on SIGTERM while a publisher never answers, records no failure, and the next run fetches the page", async () => {
    if (process.platform !== "linux") return; // reads /proc
    const dataDir = join(dir, "never");
    const args = [
      "crawl",
      "--sources",
      join(dir, "never.json"),
      "--json",
      "--allow-private",
      "--data-dir",
      dataDir,
    ];
    const env = { ...process.env, STORYTRAIL_MIN_HOST_DELAY_MS: "0" };
    const child = spawn(process.execPath, [bin, ...args], { cwd: repo, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((ok) => child.once("exit", (c) => ok(c)));
    // Java starts slowly on a loaded machine: the wait is for the request, not a timing claim.
    await new Promise<void>((ok) => {
      never.arrived = ok;
    });
    const children = descendants(child.pid!);
    expect(children.length).toBeGreaterThanOrEqual(2); // DynamoDB Local (java) and fauxqs
    const sent = Date.now();
    child.kill("SIGTERM");
    const code = await exited;
    const took = Date.now() - sent;
    expect(code, stderr).toBe(143);
    expect(took, stderr).toBeLessThan(5_000);
    expect(children.filter(alive)).toEqual([]);
    expect(stderr).not.toContain("stopping at once"); // a clean stop, not the forced one
    // The page is neither fetched nor failed: its message waits in the data directory.
    expect(JSON.parse(stdout)).toMatchObject({
      interrupted: "SIGTERM",
      claimed: 1,
      articles: 0,
      failed: 0,
      pending: 1,
    });
    expect(readFileSync(join(dataDir, "sqs", "fetch.jsonl"), "utf8")).toContain(site.url("/never"));

    // The publisher answers now: the next run with the same folder fetches the page.
    never.answer = true;
    const before = site.hits.get("/never") ?? 0;
    const next = await cliAsync(args, { STORYTRAIL_MIN_HOST_DELAY_MS: "0" });
    expect(next.status, next.stderr).toBe(0);
    expect(next.stderr).toContain("resumed 1 queued messages");
    // The host the stopped request had taken is free at once, not when its lease runs out (35 s later).
    expect(next.stderr).toContain("freed 1 hosts a stopped run had taken");
    expect(site.hits.get("/never")).toBe(before + 1);
    // The folder is a crawl's: export reads it as named, with no other flag.
    const out = join(dir, "never-export");
    const exported = cli(["export", "--data-dir", dataDir, "--out", out]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(readFileSync(join(out, "articles.jsonl"), "utf8")).toContain(site.url("/never"));
    // And a run of another kind is refused there.
    const demo = cli(["crawl", "--demo", "--data-dir", dataDir]);
    expect(demo.status).toBe(2);
    expect(demo.stderr).toContain("--data-dir .storytrail/crawl-demo");
  }, 300_000);

  it("tail --raw prints that run's stream records as a Lambda receives them, which decode to its story", () => {
    const dataDir = join(dir, "never"); // the run of the test above
    const raw = cli(["tail", "--raw", "--once", "--data-dir", dataDir]);
    expect(raw.status, raw.stderr).toBe(0);
    const records = raw.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as DynamoDBRecord);
    expect(records.length).toBeGreaterThanOrEqual(2); // the story's summary and its member, at least
    for (const r of records) {
      expect(r).toMatchObject({ eventSource: "aws:dynamodb", awsRegion: "us-east-1" });
      expect(["INSERT", "MODIFY", "REMOVE"]).toContain(r.eventName);
      expect(typeof r.eventID).toBe("string");
      expect(r.dynamodb?.Keys?.cluster_id?.S).toMatch(/^c-[0-9a-f]{32}$/);
      expect(typeof r.dynamodb?.SequenceNumber).toBe("string");
    }
    // The same records, decoded, are what tail --json prints.
    const decoded = cli(["tail", "--json", "--once", "--data-dir", dataDir]);
    expect(decoded.stdout.trim().split("\n")).toEqual(
      records.map((r) => JSON.stringify(decodeClusterStreamRecord(r))),
    );
    const view = new StoryView();
    for (const r of records) view.apply(decodeClusterStreamRecord(r));
    expect(view.stories().flatMap((st) => st.members.map((m) => m.url))).toEqual([site.url("/never")]);
  }, 120_000);
});
