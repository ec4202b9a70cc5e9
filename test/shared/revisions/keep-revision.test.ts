/**
 * Revisions through the fetch use case on DynamoDB Local and fauxqs: a loopback page that changes
 * between fetches (a no-op republish, a headline rewrite, a paragraph appended, a correction, a figure
 * changed) and one that flips between two versions on every fetch.
 */

import { randomBytes } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { ArticlesTable } from "../../../shared/aws/articles-table";
import { FrontierTable } from "../../../shared/aws/frontier-table";
import { RawSamplesBucket } from "../../../shared/aws/raw-samples";
import { RevisionsBucket } from "../../../shared/aws/revisions-bucket";
import { type FetchDeps, fetchArticle } from "../../../shared/crawl/fetch-article";
import { RobotsCache } from "../../../shared/discover/robots";
import { extractArticle } from "../../../shared/extract/article";
import { HttpClient } from "../../../shared/fetch/http";
import type { DedupMessage, FetchMessage } from "../../../shared/records";
import { REVISIONS_KEPT, revisionBodyKey } from "../../../shared/revisions/article-revision";
import { ITEM_TOO_LARGE } from "../../../shared/revisions/keep-revision";
import { articleIdFor } from "../../../shared/url/canonical-url";
import { type NewsServer, send, startNewsServer } from "../../support/news-server";
import { uniquePrefix } from "../../support/unique-prefix";

const filler = (seed: string) =>
  Array.from({ length: 60 }, (_, i) => `The ${seed} talks went on for hours ${i} and nobody left.`).join(" ");
const PARAGRAPHS = [
  `Dock workers at the three largest ports voted to end a nine-day strike. ${filler("harbour")}`,
  `Police said 12 people were hurt when a crane fell during the strike. ${filler("union")}`,
];
const page = (headline: string, paragraphs: readonly string[], head = "") =>
  `<!doctype html><html lang="en"><head><title>${headline}</title>${head}<meta property="article:published_time" content="2026-11-30T10:00:00Z"></head><body><article><h1>${headline}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("")}</article></body></html>`;

describe("revisions of a page fetched again", () => {
  let site: NewsServer;
  let runtime: LocalRuntime;
  let deps: FetchDeps;
  let sent: DedupMessage[] = [];
  let at = Date.parse("2026-12-01T00:00:00Z");
  const msg = (path: string): FetchMessage => ({
    url: site.url(path),
    source_id: "h",
    publication: "Harbor Daily",
    discovered_from: site.url("/sitemap.xml"),
    run_id: "r1",
  });
  /** Serves `html` at `path` and fetches it an hour after the last fetch. */
  const fetchVersion = async (path: string, html: string) => {
    site.route(path, send("text/html; charset=utf-8", html));
    at += 3_600_000;
    sent = [];
    expect(await fetchArticle(msg(path), deps)).toMatchObject({ kind: "article" });
    return deps.articles.get(articleIdFor(site.url(path)));
  };

  beforeAll(async () => {
    site = await startNewsServer({ "/robots.txt": send("text/plain", "User-agent: *\nAllow: /\n") });
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix("revisions") });
    const http = new HttpClient({ userAgent: "storytrail-test/1", allowPrivateAddresses: true });
    const rawSamples = new RawSamplesBucket(runtime.clients.s3, runtime.resources.buckets.raw);
    deps = {
      http,
      robots: new RobotsCache(http, "storytrail-test/1"),
      pacer: { wait: async () => {}, done: async () => {} },
      frontier: new FrontierTable(runtime.clients.doc, runtime.resources.tables.frontier),
      articles: new ArticlesTable(runtime.clients.doc, runtime.resources.tables.articles),
      rawSamples,
      revisions: new RevisionsBucket(rawSamples),
      dedupQueue: { send: async (m) => void sent.push(...m) },
      now: () => new Date(at),
      sampleRate: 0,
    };
  });

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  it("finds each planted change, keeps the earlier bodies in S3, and adds nothing for a republish", async () => {
    const path = "/world/port-strike";
    const first = await fetchVersion(path, page("Port strike ends", PARAGRAPHS));
    expect(first).toMatchObject({ revision_count: 0, revisions: [] });
    expect(sent[0]?.revision).toBeUndefined();

    // A republish: a new modified date and markup, the same text.
    const republished = page(
      "Port strike ends",
      PARAGRAPHS,
      '<meta property="article:modified_time" content="2026-12-01T01:00:00Z">',
    );
    expect(await fetchVersion(path, republished)).toMatchObject({ revision_count: 0, revisions: [] });
    expect(sent[0]?.revision).toBeUndefined();

    const rewritten = await fetchVersion(path, page("Dock workers end nine-day port strike", PARAGRAPHS));
    expect(rewritten?.revisions.at(-1)).toMatchObject({
      number: 1,
      headline: "Dock workers end nine-day port strike",
      previous_headline: "Port strike ends",
      headline_changed: true,
      body_changed: false,
      words_added: 0,
      notice: null,
    });
    expect(sent[0]?.revision?.number).toBe(1);

    const appended = [...PARAGRAPHS, "Unions said the deal would be put to a second vote next week."];
    const grown = await fetchVersion(path, page("Dock workers end nine-day port strike", appended));
    expect(grown?.revisions.at(-1)).toMatchObject({
      number: 2,
      headline_changed: false,
      body_changed: true,
      words_added: 13,
      words_removed: 0,
      added_sample: "Unions said the deal would be put to a second vote next week.",
    });

    const corrected = [...appended, "Correction: An earlier version of this article misnamed the union."];
    expect(
      (await fetchVersion(path, page("Dock workers end nine-day port strike", corrected)))?.revisions.at(-1),
    ).toMatchObject({
      number: 3,
      notice: "correction",
      notice_text: "Correction: An earlier version of this article misnamed the union.",
    });

    const refigured = corrected.map((p) => p.replace("12 people", "15 people"));
    const last = await fetchVersion(path, page("Dock workers end nine-day port strike", refigured));
    expect(last?.revisions.at(-1)).toMatchObject({
      number: 4,
      words_added: 1,
      words_removed: 1,
      added_sample: "15",
      removed_sample: "12",
      notice: null,
    });
    expect(last).toMatchObject({ revision_count: 4 });
    expect(last?.revisions.map((r) => r.number)).toEqual([1, 2, 3, 4]);
    expect(last?.revisions.at(-1)?.collected_at).toBe(new Date(at).toISOString());

    // The body revision 1 replaced is the first version's, in the raw samples' bucket.
    const id = articleIdFor(site.url(path));
    const object = await runtime.clients.s3.send(
      new GetObjectCommand({ Bucket: runtime.resources.buckets.raw, Key: revisionBodyKey(id, 1) }),
    );
    const earlier = gunzipSync(await object.Body!.transformToByteArray()).toString("utf8");
    expect(earlier).toBe(first?.body);

    // Fetched again unchanged: no revision, and the latest is sent again (dedup's write of it is idempotent).
    expect(await fetchVersion(path, page("Dock workers end nine-day port strike", refigured))).toMatchObject({
      revision_count: 4,
    });
    expect(sent[0]?.revision?.number).toBe(4);
  });

  it("keeps the last 20 revisions of a page that flips between two versions on every fetch, and counts all", async () => {
    const path = "/world/flip";
    const versions = [page("Flip", PARAGRAPHS), page("Flop", PARAGRAPHS)];
    for (let i = 0; i <= 25; i++) await fetchVersion(path, versions[i % 2]!);
    const a = await deps.articles.get(articleIdFor(site.url(path)));
    expect(a?.revision_count).toBe(25);
    expect(a?.revisions).toHaveLength(REVISIONS_KEPT);
    expect(a?.revisions[0]?.number).toBe(6);
    expect(a?.revisions.at(-1)).toMatchObject({ number: 25, headline: "Flop", previous_headline: "Flip" });
  });

  it("keeps a revision the item cannot take in S3 with its reason, and the article stored", async () => {
    // An article just under the item limit (an extraction past the caps, as fetch-article.test's net
    // under them: ~390 KB of gzip that cannot shrink), whose 300-character headlines flip.
    const body = randomBytes(390_000).toString("base64");
    const big = {
      ...deps,
      extract: (input: Parameters<typeof extractArticle>[0]) => ({ ...extractArticle(input), body }),
    };
    const path = "/world/heavy";
    const versions = [
      page(`Flip ${"a".repeat(400)}`, PARAGRAPHS),
      page(`Flop ${"b".repeat(400)}`, PARAGRAPHS),
    ];
    for (let i = 0; i <= 20; i++) {
      site.route(path, send("text/html; charset=utf-8", versions[i % 2]!));
      at += 3_600_000;
      expect(await fetchArticle(msg(path), big)).toMatchObject({ kind: "article" });
    }
    const id = articleIdFor(site.url(path));
    const a = await deps.articles.get(id);
    expect(a?.revision_count).toBe(20);
    expect(a?.revisions.length).toBeLessThan(20);
    const listed = await runtime.clients.s3.send(
      new ListObjectsV2Command({ Bucket: runtime.resources.buckets.raw, Prefix: `revisions/${id}/` }),
    );
    const keys = (listed.Contents ?? []).map((o) => o.Key ?? "");
    expect(keys.filter((k) => k.endsWith(".txt.gz"))).toHaveLength(20);
    const overflow = keys.filter((k) => k.endsWith(".json"));
    expect(overflow.length).toBeGreaterThan(0);
    const got = await runtime.clients.s3.send(
      new GetObjectCommand({ Bucket: runtime.resources.buckets.raw, Key: overflow[0] }),
    );
    const kept = JSON.parse(await got.Body!.transformToString());
    expect(kept).toMatchObject({ reason: ITEM_TOO_LARGE, revision: { headline_changed: true } });
  });
});
