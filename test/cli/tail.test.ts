/**
 * `storytrail tail` on real local runs: the demo crawl, then its Clusters stream decoded; an import of
 * real pages, whose store keeps no stream, read as the stream from the start would carry its stories;
 * two crawls a day apart of a page revised between them, whose revision the stream and a plain-Node
 * consumer show.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ScanCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulators } from "../../infra/local/emulators";
import { destroyClients, makeClients } from "../../shared/aws/clients";
import { LOCAL_PREFIX } from "../../shared/config/resource-names";
import type { ClusterStreamEvent } from "../../shared/consumer/decode-stream-record";
import { StoryView } from "../../shared/consumer/story-view";
import { type NewsServer, SITEMAP_NS, send, startNewsServer } from "../support/news-server";
import { realPageWarc } from "../support/real-page-warc";

const repo = resolve(import.meta.dirname, "../..");
const cli = (args: string[], timeout = 170_000) =>
  spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), ...args], {
    cwd: repo,
    encoding: "utf8",
    timeout,
  });

describe("storytrail tail", () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-tail-"));
  let crawled: { clusters: number; clustered_articles: number };

  beforeAll(() => {
    const r = cli(["crawl", "--demo", "--json", "--retry-delay", "0", "--data-dir", dir]);
    expect(r.status, r.stderr).toBe(0);
    crawled = JSON.parse(r.stdout);
  }, 180_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the run's stream as events (--json), from which the view rebuilds the run's stories", () => {
    const r = cli(["tail", "--data-dir", dir, "--once", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as ClusterStreamEvent);
    expect(events.filter((e) => e.type === "story_created").length).toBeGreaterThanOrEqual(crawled.clusters);
    const view = new StoryView();
    for (const e of events) view.apply(e);
    const stories = view.stories();
    expect(stories.length).toBe(crawled.clusters);
    expect(stories.reduce((n, s) => n + s.members.length, 0)).toBe(crawled.clustered_articles);
    expect(Math.max(...stories.map((s) => s.outlets.length))).toBe(3);
  }, 120_000);

  it("prints one readable line per event, and refuses a directory without a run", () => {
    const r = cli(["tail", "--data-dir", dir, "--once"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^story_created +c-[0-9a-f]{32} "Dock workers end nine-day port strike/m);
    const empty = cli(["tail", "--data-dir", join(dir, "nothing"), "--once"]);
    expect(empty.status).not.toBe(0);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain("no folder");
  }, 120_000);
});

describe("storytrail tail after a run's TTL sweep", () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-tail-ttl-"));
  const T0 = "2027-01-15T12:00:00.000Z";
  const at = (iso: string, days: number) => Math.floor(Date.parse(iso) / 1000) + days * 86_400;
  let crawled: { clusters: number; clustered_articles: number };
  let expiring: { members: string[]; outlet: string; hot: string; story: string };
  let secondRun: { stderr: string };

  const crawl = (now: string) =>
    spawnSync(
      process.execPath,
      [join(repo, "bin/storytrail.js"), "crawl", "--demo", "--json", "--retry-delay", "0", "--data-dir", dir],
      { cwd: repo, encoding: "utf8", timeout: 170_000, env: { ...process.env, STORYTRAIL_NOW: now } },
    );

  beforeAll(async () => {
    const first = crawl(T0);
    expect(first.status, first.stderr).toBe(0);
    crawled = JSON.parse(first.stdout);
    // The archive's part, by hand: a story's older members and an outlet get an expiry that has passed
    // by the clock, one member a month on (in the run's DynamoDB Local, as the archive step writes them).
    // The next run is on the same day, so it finds nothing new that could write them again.
    const emulators = await startEmulators({ dynamoPath: join(dir, "dynamodb") });
    const clients = makeClients({ dynamodb: emulators.endpoints.dynamodb }, "us-east-1");
    try {
      const TableName = `${LOCAL_PREFIX}clusters`;
      const items = (await clients.doc.send(new ScanCommand({ TableName }))).Items ?? [];
      const story = items.find((i) => i.item === "summary" && !i.merged_into && i.article_count >= 3)!;
      const mine = items.filter((i) => i.cluster_id === story.cluster_id);
      const members = mine.filter((i) => String(i.item).startsWith("member#")).map((i) => String(i.item));
      const outlet = String(mine.find((i) => String(i.item).startsWith("outlet#"))?.item);
      expiring = { members: members.slice(0, 2), outlet, hot: members[2]!, story: String(story.cluster_id) };
      for (const [item, expires_at] of [
        ...[...expiring.members, outlet].map((i) => [i, at(T0, -1)] as const),
        [expiring.hot, at(T0, 30)] as const,
      ])
        await clients.doc.send(
          new UpdateCommand({
            TableName,
            Key: { cluster_id: story.cluster_id, item },
            UpdateExpression: "SET expires_at = :e",
            ExpressionAttributeValues: { ":e": expires_at },
          }),
        );
    } finally {
      destroyClients(clients);
      await emulators.stop();
    }
    // The next run's sweep, at its start, expires the three items, not the one a month on.
    const second = crawl(T0);
    expect(second.status, second.stderr).toBe(0);
    secondRun = second;
  }, 400_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the expired items as expiry events (--json), and the view keeps every story", () => {
    expect(secondRun.stderr).toMatch(/^expired .*\b3 clusters items\b.* \(TTL\)$/m);
    const r = cli(["tail", "--data-dir", dir, "--once", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as ClusterStreamEvent);
    const ends = events.filter((e) => e.cluster_id === expiring.story && /_(expired|removed)$/.test(e.type));
    expect(ends.map((e) => e.type).sort()).toEqual(["member_expired", "member_expired", "outlet_expired"]);
    expect(
      ends
        .map((e) =>
          "article_id" in e ? `member#${e.article_id}` : "source_id" in e ? `outlet#${e.source_id}` : "",
        )
        .sort(),
    ).toEqual([...expiring.members, expiring.outlet].sort());
    const view = new StoryView();
    for (const e of events) view.apply(e);
    expect(view.stories().length).toBe(crawled.clusters);
    const story = view.story(expiring.story);
    const kept = story?.members.map((m) => m.item);
    expect(kept).toContain(expiring.hot);
    for (const m of expiring.members) expect(kept).not.toContain(m);
    expect(story?.summary.article_count).toBe((kept?.length ?? 0) + 2);
    const text = cli(["tail", "--data-dir", dir, "--once"]);
    expect(text.stdout).toMatch(new RegExp(`^member_expired +${expiring.story} article `, "m"));
  }, 120_000);

  it("prints the REMOVE records with the TTL's userIdentity (--raw), as a Lambda receives them", () => {
    const r = cli(["tail", "--data-dir", dir, "--once", "--raw"]);
    expect(r.status, r.stderr).toBe(0);
    const removes = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as DynamoDBRecord)
      .filter((x) => x.eventName === "REMOVE" && x.dynamodb?.Keys?.cluster_id?.S === expiring.story);
    expect(removes).toHaveLength(3);
    for (const x of removes)
      expect(x.userIdentity).toEqual({ type: "Service", principalId: "dynamodb.amazonaws.com" });
  }, 120_000);
});

describe("storytrail tail on an import's data directory", () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-tail-import-"));
  const data = join(dir, "data");
  let imported: { articles: number };
  let exported: { stories: number; members: number };

  beforeAll(async () => {
    const made = await realPageWarc(12, 3, "2026-07-01T09:00:00Z");
    writeFileSync(join(dir, "pages.warc.gz"), made.warc);
    const r = cli([
      "import",
      "--warc",
      join(dir, "pages.warc.gz"),
      "--data-dir",
      data,
      "--json",
      "--workers",
      "1",
    ]);
    expect(r.status, r.stderr).toBe(0);
    imported = JSON.parse(r.stdout);
    const e = cli(["export", "--data-dir", data, "--format", "jsonl", "--out", join(dir, "export")]);
    expect(e.status, e.stderr).toBe(0);
    const stories = readFileSync(join(dir, "export", "stories.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { article_count: number });
    exported = { stories: stories.length, members: stories.reduce((n, s) => n + s.article_count, 0) };
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the store's stories as events from which the view rebuilds what export reads, then exits", () => {
    const r = cli(["tail", "--data-dir", data, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("no stream to follow");
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as ClusterStreamEvent);
    const view = new StoryView();
    for (const e of events) view.apply(e);
    const stories = view.stories();
    expect(stories.length).toBe(exported.stories);
    expect(stories.reduce((n, s) => n + s.members.length, 0)).toBe(exported.members);
    expect(exported.members).toBe(imported.articles);
    expect(stories.some((s) => s.outlets.length === 2)).toBe(true);
  }, 120_000);

  it("prints raw INSERT records a Lambda would receive, and nothing from 'now'", () => {
    const raw = cli(["tail", "--data-dir", data, "--raw"]);
    expect(raw.status, raw.stderr).toBe(0);
    const records = raw.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { eventName: string; dynamodb: { NewImage: Record<string, unknown> } });
    expect(new Set(records.map((r) => r.eventName))).toEqual(new Set(["INSERT"]));
    expect(records[0]?.dynamodb.NewImage.cluster_id).toHaveProperty("S");
    const now = cli(["tail", "--data-dir", data, "--from", "now"]);
    expect(now.status, now.stderr).toBe(0);
    expect(now.stdout).toBe("");
  }, 120_000);
});

/** The CLI without blocking this process, whose loopback site the child crawls. */
const cliAsync = (args: string[], env: Record<string, string> = {}, input?: string) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((done, failed) => {
    const child = spawn(
      process.execPath,
      args[0]?.endsWith(".mjs") ? args : [join(repo, "bin/storytrail.js"), ...args],
      {
        cwd: repo,
        env: { ...process.env, ...env },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", failed);
    child.on("close", (status) => done({ status, stdout, stderr }));
    child.stdin.end(input ?? "");
  });

describe("storytrail tail on a page revised between two crawls", () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-tail-revised-"));
  const data = join(dir, "data");
  let site: NewsServer;
  const filler = (topic: string) =>
    Array.from({ length: 40 }, (_, i) => `The ${topic} talks went on for hours ${i} and nobody left.`).join(
      " ",
    );
  const page = (headline: string, paragraphs: readonly string[]) =>
    `<!doctype html><html lang="en"><head><title>${headline}</title><meta property="article:published_time" content="2026-12-01T08:00:00Z"></head><body><article><h1>${headline}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("")}</article></body></html>`;
  const strike = [
    `Dock workers at the three largest ports voted to end a nine-day strike. ${filler("harbour")}`,
  ];
  const budget = [
    Array.from(
      { length: 40 },
      (_, i) => `Councillor ${i} voted for more spending on schools, buses and roads.`,
    ).join(" "),
  ];
  /** A day's web: the sitemap's lastmods and the pages as they stand that day. */
  const serve = (lastmod: string, strikeHtml: string) => {
    site.route(
      "/sitemap.xml",
      send(
        "application/xml",
        `<?xml version="1.0"?><urlset ${SITEMAP_NS}>${["/world/port-strike", "/city/budget"]
          .map((p) => `<url><loc>${site.url(p)}</loc><lastmod>${lastmod}</lastmod></url>`)
          .join("")}</urlset>`,
      ),
    );
    site.route("/world/port-strike", send("text/html; charset=utf-8", strikeHtml));
  };
  const crawl = async (now: string) => {
    const r = await cliAsync(
      [
        "crawl",
        "--sources",
        join(dir, "sources.json"),
        "--allow-private",
        "--json",
        "--retry-delay",
        "0",
        "--data-dir",
        data,
      ],
      { STORYTRAIL_NOW: now, STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
    );
    expect(r.status, r.stderr).toBe(0);
  };
  let events: ClusterStreamEvent[];
  let tailed: string;

  beforeAll(async () => {
    site = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
    site.route("/city/budget", send("text/html; charset=utf-8", page("Council passes budget", budget)));
    const source = {
      id: "harbor",
      publication: "Harbor Daily",
      homepage: site.url("/"),
      sitemaps: [site.url("/sitemap.xml")],
    };
    writeFileSync(join(dir, "sources.json"), JSON.stringify({ sources: [source] }));
    serve("2026-12-01T09:00:00Z", page("Port strike ends", strike));
    await crawl("2026-12-01T12:00:00Z");
    // The next day: the headline rewritten and a paragraph appended; the budget page republished as it was.
    const appended = "Unions said the deal would be put to a second vote next week.";
    serve(
      "2026-12-02T09:00:00Z",
      page("Dock workers end nine-day port strike after wage deal", [...strike, appended]),
    );
    await crawl("2026-12-02T12:00:00Z");
    const r = await cliAsync(["tail", "--data-dir", data, "--once", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    tailed = r.stdout;
    events = tailed
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as ClusterStreamEvent);
  }, 300_000);

  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("carries the revision as article_revised, the republish as nothing, and the article stays in its story", () => {
    // Both pages were fetched again on the second day (their lastmods moved); only one had changed.
    expect([site.hits.get("/world/port-strike"), site.hits.get("/city/budget")]).toEqual([2, 2]);
    const revised = events.filter((e) => e.type === "article_revised");
    expect(revised).toHaveLength(1);
    const [e] = revised;
    expect(e).toMatchObject({
      member: { url: site.url("/world/port-strike"), latest_revision: { number: 1 } },
      revision: {
        number: 1,
        collected_at: expect.stringMatching(/^2026-12-02T12:/), // the clock starts at STORYTRAIL_NOW and runs
        previous_headline: "Port strike ends",
        headline: "Dock workers end nine-day port strike after wage deal",
        headline_changed: true,
        body_changed: true,
        words_removed: 0,
        added_sample: "Unions said the deal would be put to a second vote next week.",
        notice: null,
      },
    });
    const view = new StoryView();
    for (const x of events) view.apply(x);
    expect(view.stories()).toHaveLength(2);
    expect(view.story(e!.cluster_id)?.members.map((m) => m.url)).toEqual([site.url("/world/port-strike")]);
  });

  it("a plain-Node consumer prints the revision from tail --json, and export writes it to the revisions table", async () => {
    const printed = await cliAsync([join(repo, "examples/revisions/print-revisions.mjs")], {}, tailed);
    expect(printed.status, printed.stderr).toBe(0);
    expect(printed.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^2026-12-02T12:\d\d:\d\d\.\d{3}Z c-[0-9a-f]{32} http:\/\/127\.0\.0\.1:\d+\/world\/port-strike revision 1: "Port strike ends" → "Dock workers end nine-day port strike after wage deal", \+13\/-0 words$/,
      ),
    ]);
    const x = await cliAsync([
      "export",
      "--data-dir",
      data,
      "--format",
      "jsonl",
      "--out",
      join(dir, "export"),
    ]);
    expect(x.status, x.stderr).toBe(0);
    const rows = readFileSync(join(dir, "export", "revisions.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows).toMatchObject([
      {
        url: site.url("/world/port-strike"),
        number: 1,
        revision_count: 1,
        previous_headline: "Port strike ends",
      },
    ]);
  }, 120_000);
});
