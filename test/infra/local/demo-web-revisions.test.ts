/**
 * The demo web's planted revisions found (issue 41 Must have 6): the real pipeline crawls the web on
 * one day, then the web a day later (the same URLs, the day before's pages revised at them) into the
 * same tables with the functions' clock a day on. Every change the plan made on day 2 is a revision of
 * its article with the right change and the page's modification time, on the item and on the Clusters
 * stream (decoded as `storytrail tail --json` prints it); the no-op republish is fetched again and adds
 * none.
 */
import type { DynamoDBRecord } from "aws-lambda";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { PlannedRevision } from "../../../infra/local/demo-web/news-web";
import { type DemoWeb, startDemoWeb } from "../../../infra/local/demo-web/server";
import { LocalRuntime } from "../../../infra/local/runtime";
import { decodeArticleItem } from "../../../shared/consumer/article-item";
import {
  type ClusterStreamEvent,
  decodeClusterStreamRecord,
} from "../../../shared/consumer/decode-stream-record";
import type { Article } from "../../../shared/records";
import { TEST_ANCHOR, TEST_NOW } from "../../support/demo-web-crawl";
import { uniquePrefix } from "../../support/unique-prefix";

const DAY_MS = 86_400_000;
const dayLater = (iso: string) => new Date(Date.parse(iso) + DAY_MS);
const DAY_2 = dayLater(TEST_ANCHOR).toISOString().slice(0, 10);

describe("the demo web's planted revisions, crawled on two days", () => {
  const prefix = uniquePrefix("planted");
  /** Day 1's articles and day 2's, by URL. */
  const before = new Map<string, Article>();
  const after = new Map<string, Article>();
  /** Day 2's Frontier items by URL (which run claimed each, and what became of it). */
  const frontier = new Map<string, Record<string, unknown>>();
  let events: ClusterStreamEvent[] = [];
  let planned: readonly PlannedRevision[] = [];
  let developing: DemoWeb["developing"][number] | undefined;

  /** One day's crawl of `web` on the shared tables (a runtime of its own: the functions' clock at `now`). */
  const crawlDay = async (
    web: DemoWeb,
    now: string,
    runId: string,
    then: (runtime: LocalRuntime) => Promise<void>,
  ) => {
    const runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix,
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: "0",
        STORYTRAIL_NOW: now,
        // No decaying re-checks: only a moved lastmod sends a known URL to fetch again.
        STORYTRAIL_RECHECK_HOURS: "",
      },
    });
    try {
      await runtime.discover({ sources: web.sources, run_id: runId });
      await runtime.drain();
      await then(runtime);
    } finally {
      await runtime.close();
      await web.close();
    }
  };
  const articlesOf = async (runtime: LocalRuntime, into: Map<string, Article>) => {
    for (const item of await runtime.items("articles")) {
      const a = decodeArticleItem(item);
      into.set(a.url, a);
    }
  };

  beforeAll(async () => {
    const day1 = await startDemoWeb({ anchor: new Date(TEST_ANCHOR) });
    const port = Number(new URL(day1.outlets[0]!.origin).port);
    await crawlDay(day1, TEST_NOW, "day-1", (runtime) => articlesOf(runtime, before));
    // The same port (so the same URLs), the web a day on, with day 1 in its history.
    const day2 = await startDemoWeb({
      anchor: dayLater(TEST_ANCHOR),
      port,
      firstDay: TEST_ANCHOR.slice(0, 10),
    });
    expect(day2.days).toEqual({ first: TEST_ANCHOR.slice(0, 10), last: DAY_2 });
    planned = day2.revisions.filter((r) => r.day === DAY_2);
    developing = day2.developing.find((d) => d.day === TEST_ANCHOR.slice(0, 10));
    await crawlDay(day2, dayLater(TEST_NOW).toISOString(), "day-2", async (runtime) => {
      await articlesOf(runtime, after);
      for (const item of await runtime.items("frontier")) frontier.set(String(item.url), item);
      const records: DynamoDBRecord[] = [];
      const subscription = await runtime.subscribeClusters(async (e) => {
        records.push(...e.Records);
      });
      await subscription.flush();
      await subscription.stop();
      // As `storytrail tail --json` prints them: each record decoded, one JSON event per line.
      events = records.map((r) => JSON.parse(JSON.stringify(decodeClusterStreamRecord(r))));
    });
  }, 150_000);

  const plannedOf = (kind: PlannedRevision["kind"]) => {
    const found = planned.filter((r) => r.kind === kind);
    expect(found, `one planted ${kind} on ${DAY_2}`).toHaveLength(1);
    return found[0]!;
  };
  const revisedOn = (p: PlannedRevision) => {
    const was = before.get(p.url);
    const now = after.get(p.url);
    expect(was, `${p.kind}: ${p.url} stored on day 1`).toBeDefined();
    expect(now, `${p.kind}: ${p.url} stored on day 2`).toBeDefined();
    expect(was!.revision_count).toBe(0);
    return { was: was!, now: now! };
  };
  const onlyRevision = (p: PlannedRevision) => {
    const { was, now } = revisedOn(p);
    expect(now.revision_count, `${p.kind}: revisions of ${p.url}`).toBe(1);
    expect(now.revisions).toHaveLength(1);
    const r = now.revisions[0]!;
    expect(r).toMatchObject({ number: 1, collected_at: now.collected_at });
    expect(r.modified_at, `${p.kind}: the page's modification time`).toBe(new Date(p.at).toISOString());
    return { was, now, r };
  };

  it("plans one page of each kind on day 2, and the developing story's update", () => {
    expect(planned.map((r) => r.kind).sort()).toEqual(
      ["correction", "figure", "headline", "paragraph", "republish", "update"].sort(),
    );
    expect(developing?.updates).toEqual([{ url: developing?.urls[0], day: DAY_2 }]);
  });

  it("finds the headline rewrite: the headline changed, the earlier one kept", () => {
    const p = plannedOf("headline");
    const { was, r } = onlyRevision(p);
    expect(r).toMatchObject({
      headline_changed: true,
      body_changed: false,
      headline: p.change,
      previous_headline: was.headline,
      words_added: 0,
      words_removed: 0,
    });
  });

  it("finds the appended paragraph: words added, none removed", () => {
    const p = plannedOf("paragraph");
    const { r } = onlyRevision(p);
    expect(r.headline_changed).toBe(false);
    expect(r.body_changed).toBe(true);
    expect(r.words_added).toBe(p.change.split(/\s+/).length);
    expect(r.words_removed).toBe(0);
    expect(p.change).toContain(r.added_sample.slice(0, 40));
  });

  it("finds the correction: its notice and line", () => {
    const p = plannedOf("correction");
    const { r } = onlyRevision(p);
    expect(r).toMatchObject({ body_changed: true, notice: "correction", notice_text: p.change });
    expect(r.words_removed).toBe(0);
  });

  it("finds the changed figure: the old number removed, the new one added", () => {
    const p = plannedOf("figure");
    const [from, to] = p.change.split(" → ").map((s) => s.match(/\d+/)![0]);
    expect(from).not.toBe(to);
    const { r } = onlyRevision(p);
    expect(r).toMatchObject({
      headline_changed: false,
      body_changed: true,
      words_added: 1,
      words_removed: 1,
    });
    expect(r.removed_sample.split(/\s+/)).toContain(from);
    expect(r.added_sample.split(/\s+/)).toContain(to);
  });

  it("fetches the no-op republish again and keeps no revision", () => {
    const p = plannedOf("republish");
    const { was, now } = revisedOn(p);
    expect(frontier.get(p.url)).toMatchObject({ run_id: "day-2", status: "fetched" });
    expect(now.collected_at > was.collected_at).toBe(true);
    expect(now.collected_at.slice(0, 10)).toBe(DAY_2);
    expect(now.revision_count).toBe(0);
    expect(now.revisions).toEqual([]);
    expect(now.body).toBe(was.body);
  });

  it("finds the developing story's same-URL update as a revision of its original", () => {
    const p = plannedOf("update");
    expect(p.url).toBe(developing?.urls[0]);
    const { r } = onlyRevision(p);
    expect(r).toMatchObject({ headline_changed: false, body_changed: true, notice: "update" });
    expect(r.notice_text).toBe(p.change);
    expect(r.words_added).toBe(p.change.split(/\s+/).length);
    expect(r.words_removed).toBe(0);
  });

  it("streams one article_revised per planted revision, none for the no-op", () => {
    const revised = events.flatMap((e) => (e.type === "article_revised" ? [e] : []));
    const urls = (kind?: PlannedRevision["kind"]) =>
      planned.filter((r) => (kind ? r.kind === kind : r.kind !== "republish")).map((r) => r.url);
    expect(revised.map((e) => e.member.url).sort()).toEqual(urls().sort());
    for (const e of revised) {
      const stored = after.get(e.member.url)!;
      expect(e.revision).toEqual(stored.revisions[0]);
      expect(e.member.latest_revision).toEqual(stored.revisions[0]);
      expect(e.previous?.latest_revision ?? null).toBeNull();
    }
    const noop = urls("republish")[0]!;
    const noopMember = events.filter(
      (e) => (e.type === "member_added" || e.type === "member_updated") && e.member.url === noop,
    );
    expect(noopMember.length).toBeGreaterThan(0);
    expect(noopMember.every((e) => "member" in e && e.member.latest_revision === null)).toBe(true);
    // The update is revised in the developing story: the story its day-2 follow-up joined.
    const update = revised.find((e) => e.member.url === urls("update")[0]);
    const followUp = developing?.followUps.find((f) => f.day === DAY_2)?.url;
    const joined = events.find(
      (e) => (e.type === "member_added" || e.type === "member_moved") && e.member.url === followUp,
    );
    expect(joined?.cluster_id).toBeDefined();
    expect(update?.cluster_id).toBe(joined?.cluster_id);
  });
});
