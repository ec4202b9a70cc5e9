/**
 * The walking skeleton, end to end: a loopback news site → discover → fetch → dedup → Clusters stream,
 * on local emulators, through the same handlers Lambda runs.
 */
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type DemoSite, startDemoSite } from "../../../infra/local/demo-site";
import { LocalRuntime } from "../../../infra/local/runtime";
import type { StreamSubscription } from "../../../infra/local/stream-driver";
import type { QualityReport } from "../../../lambdas/quality";
import { articleStories } from "../../../shared/aws/fingerprint-item";
import { decodeArticleItem } from "../../../shared/consumer/article-item";
import { type ClusterRecord, clusterRecordSchema } from "../../../shared/records";
import { articleIdFor } from "../../../shared/url/canonical-url";
import { uniquePrefix } from "../../support/unique-prefix";

/**
 * The functions' clock is pinned (STORYTRAIL_NOW) and the site dated by it, so nothing here reads the
 * calendar: once at a fixed instant of 2026, and once years ahead, where the same stories must come out.
 */
const CLOCKS = ["2026-12-01T06:00:00Z", "2031-07-15T23:30:00Z"] as const;

describe.each(CLOCKS)("local runtime, end to end on a loopback news site, clock at %s", (now) => {
  let site: DemoSite;
  let runtime: LocalRuntime;
  let subscription: StreamSubscription;
  const streamed: ClusterRecord[] = [];

  beforeAll(async () => {
    site = await startDemoSite({ at: new Date(now) });
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("e2e"),
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: "0",
        STORYTRAIL_NOW: now,
      },
    });
    subscription = await runtime.subscribeClusters(async (event) => {
      for (const r of event.Records) {
        const image = r.dynamodb?.NewImage;
        if (image) streamed.push(clusterRecordSchema.parse(unmarshall(image as never)));
      }
    });
    await runtime.discover({ sources: site.sources, run_id: "run-1" });
    await runtime.drain();
    await subscription.flush();
  });

  afterAll(async () => {
    await subscription?.stop();
    await runtime?.close();
    await site?.close();
  });

  it("stores one article per canonical URL, with AMP and tracking variants folded in", async () => {
    const articles = (await runtime.items("articles")).map(decodeArticleItem);
    const urls = articles.map((a) => a.url).sort();
    expect(urls).toEqual([...site.expected.wire, ...site.expected.unrelated].sort());
    const harbor = articles.find((a) => a.url === site.expected.wire[0]);
    expect(harbor?.url_variants).toContain(`${site.outlets[0]?.origin}/amp/world/port-strike-ends`);
    expect(harbor?.headline).toBe("Dock workers end nine-day port strike after wage deal");
    const instant = (s: string | null | undefined) => (s ? new Date(s).toISOString() : s);
    expect(site.day).toBe(new Date(Date.parse(now) - 86_400_000).toISOString().slice(0, 10));
    expect(instant(harbor?.published_at)).toBe(`${site.day}T14:05:00.000Z`);
    expect(harbor?.body).toContain("Dock workers at the country's three largest container ports");
    expect(harbor?.body).not.toContain("All rights reserved");
    const coastal = articles.find((a) => a.url === site.expected.wire[2]);
    expect(instant(coastal?.published_at)).toBe(`${site.day}T15:45:00.000Z`);
  });

  it("groups the syndicated story into one cluster listing every outlet and URL, and keeps the other apart", async () => {
    const items = (await runtime.items("clusters")).map((i) => clusterRecordSchema.parse(i));
    const live = items.filter((i) => i.record_type === "summary" && !i.merged_into);
    expect(live).toHaveLength(2);
    const wireId = items.find(
      (i) => i.record_type === "member" && i.url === site.expected.wire[0],
    )?.cluster_id;
    const members = items.filter((i) => i.record_type === "member" && i.cluster_id === wireId);
    expect(members.map((m) => (m.record_type === "member" ? m.url : "")).sort()).toEqual(
      [...site.expected.wire].sort(),
    );
    const summary = live.find((s) => s.cluster_id === wireId);
    expect(summary).toMatchObject({ article_count: 3, outlet_count: 3 });
    expect(summary?.record_type === "summary" && Date.parse(summary.first_published_at ?? "")).toBe(
      Date.parse(`${site.day}T14:05:00Z`),
    );
    expect(summary?.record_type === "summary" && summary.canonical_article_id).toBe(
      articleIdFor(site.expected.wire[0]!),
    );
    const unrelated = items.find((i) => i.record_type === "member" && i.url === site.expected.unrelated[0]);
    expect(unrelated?.cluster_id).not.toBe(wireId);
    // Article → story: each article's claim (Fingerprints table), followed through merged_into, is its live cluster.
    const pointers = articleStories(await runtime.items("fingerprints"), items);
    for (const url of site.expected.wire) expect(pointers.get(articleIdFor(url))).toBe(wireId);
    expect(pointers.get(articleIdFor(site.expected.unrelated[0]!))).toBe(unrelated?.cluster_id);
  });

  it("gives the quality λ each source's articles of the day through the by-day index", async () => {
    const articles = (await runtime.items("articles")).map(decodeArticleItem);
    const perSource = new Map<string, number>();
    for (const a of articles) perSource.set(a.source_id, (perSource.get(a.source_id) ?? 0) + 1);
    const report = (await runtime.invoke("quality", {})) as QualityReport;
    expect(Object.fromEntries(Object.entries(report.sources).map(([id, q]) => [id, q.articles]))).toEqual(
      Object.fromEntries(perSource),
    );
  });

  it("delivers the cluster records to a consumer of the Clusters stream", () => {
    const summaries = streamed.filter((r) => r.record_type === "summary");
    const members = streamed.filter((r) => r.record_type === "member");
    expect(new Set(members.map((m) => (m.record_type === "member" ? m.url : ""))).size).toBe(4);
    expect(summaries.some((s) => s.record_type === "summary" && s.article_count === 3)).toBe(true);
  });

  it("accounts for every claimed URL, and a second run enqueues nothing new", async () => {
    const counts = await runtime.runCounts("run-1");
    expect(counts.pending).toBe(0);
    expect(counts.articles + counts.failed).toBe(counts.claimed);
    expect(counts.dead_lettered).toEqual({ discover: 0, fetch: 0, dedup: 0 });
    const again = await runtime.discover({ sources: site.sources, run_id: "run-2" });
    expect(again.enqueued).toBe(0);
  });
});
