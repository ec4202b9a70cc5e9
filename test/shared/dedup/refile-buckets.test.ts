/**
 * Re-filing after a layout change, on DynamoDB Local: the Buckets entries of recent articles are
 * written again under the current layout (here: after they were lost), old ones are left to expire,
 * and a later copy finds its story through the re-filed entries. Each entry expires with its article's
 * fingerprint, never later. The clock is passed in.
 */
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { DynamoDedupStore } from "../../../shared/aws/dedup-tables";
import { scanFingerprints } from "../../../shared/aws/fingerprints-scan";
import { addArticle, articleBandKeys } from "../../../shared/dedup/clusterer";
import type { DedupArticle } from "../../../shared/dedup/dedup-store";
import { computeFingerprint } from "../../../shared/dedup/fingerprint";
import { matchParams } from "../../../shared/dedup/params";
import { refileBuckets } from "../../../shared/dedup/refile-buckets";
import { uniquePrefix } from "../../support/unique-prefix";

const story = Array.from(
  { length: 160 },
  (_, i) =>
    `The harbour board voted ${i % 7} times on the new berth plan while crews ${i} waited at pier ${i % 5}.`,
).join(" ");

function article(id: string, text: string, collected_at: string): DedupArticle {
  return {
    article_id: id,
    url: `https://news-${id}.example/story`,
    publication: `Outlet ${id}`,
    source_id: `outlet-${id}`,
    headline: "Harbour board approves berth plan",
    published_at: "2026-11-30T10:00:00.000Z",
    collected_at,
    fingerprint: computeFingerprint(text, "Harbour board approves berth plan"),
  };
}

const DAY = 86_400_000;
const NOW = Date.parse("2026-12-01T12:00:00.000Z");

describe("refileBuckets", () => {
  let runtime: LocalRuntime;
  let store: (nowMs?: number) => DynamoDedupStore;

  beforeAll(async () => {
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix("refile") });
    const tables = {
      fingerprints: runtime.resources.tables.fingerprints,
      buckets: runtime.resources.tables.buckets,
      clusters: runtime.resources.tables.clusters,
    };
    store = (nowMs = NOW) => new DynamoDedupStore(runtime.clients.doc, tables, { nowMs: () => nowMs });
  });
  afterAll(async () => runtime?.close());

  it("files recent articles under the current layout, skips old ones, and a copy finds its story again", async () => {
    const now = NOW;
    const recent = new Date(now - 2 * DAY).toISOString();
    const old = new Date(now - 200 * DAY).toISOString();
    // Each deduplicated when it was collected: its fingerprint expires the LSH retention after that.
    await addArticle(store(now - 2 * DAY), article("a", story, recent));
    await addArticle(
      store(now - 200 * DAY),
      article("z", `${story} Unrelated tail.`.replace(/harbour/g, "river"), old),
    );

    // The entries are gone (as after a layout change: the new layout's keys hold nothing of them).
    const before = (await runtime.items("buckets")).length;
    for (const item of await runtime.items("buckets"))
      await runtime.clients.doc.send(
        new DeleteCommand({
          TableName: runtime.resources.tables.buckets,
          Key: { band_hash: item.band_hash, article_id: item.article_id },
        }),
      );
    const result = await refileBuckets(
      scanFingerprints(runtime.clients.doc, runtime.resources.tables.fingerprints),
      store(),
      { since: new Date(now - 90 * DAY), now: new Date(now) },
    );
    expect(result).toEqual({ scanned: 2, refiled: 1, older: 1, unindexable: 0 });
    // Only the recent article's entries come back: one per band.
    const refiled = await runtime.items("buckets");
    expect(new Set(refiled.map((i) => i.article_id))).toEqual(new Set(["a"]));
    const keys = articleBandKeys(article("a", story, recent).fingerprint);
    expect(keys.length).toBe(matchParams.bands + matchParams.ledeBands);
    expect(refiled.length).toBe(keys.length);
    expect(before).toBe(refiled.length * 2);
    // They expire with a's fingerprint (claimed two days ago), not the retention counted from the re-filing.
    const fingerprint = await store().getArticle("a");
    expect(fingerprint?.expires_at).toBe(Math.floor((now - 2 * DAY) / 1000) + 30 * 86_400);
    for (const entry of refiled) expect(entry.expires_at).toBe(fingerprint?.expires_at);

    const copy = await addArticle(store(), article("b", story, new Date(now).toISOString()));
    expect(copy.cluster_id).toBe((await store().getArticle("a"))?.cluster_id);
  });

  it("files nothing for an article whose fingerprint expired (TTL not run yet)", async () => {
    const collected = new Date(NOW - 40 * DAY).toISOString();
    await addArticle(store(NOW - 40 * DAY), article("late", `${story} Filed long ago.`, collected));
    const gone = (await runtime.items("fingerprints")).find((i) => i.article_id === "late");
    expect(gone?.expires_at).toBeLessThanOrEqual(NOW / 1000);
    const filed = async () => (await runtime.items("buckets")).filter((i) => i.article_id === "late").length;
    for (const item of (await runtime.items("buckets")).filter((i) => i.article_id === "late"))
      await runtime.clients.doc.send(
        new DeleteCommand({
          TableName: runtime.resources.tables.buckets,
          Key: { band_hash: item.band_hash, article_id: item.article_id },
        }),
      );
    const result = await refileBuckets(
      (async function* () {
        const a = await store(NOW - 40 * DAY).getArticle("late");
        if (a) yield a;
      })(),
      store(),
      { since: new Date(NOW - 90 * DAY), now: new Date(NOW) },
    );
    expect(result).toEqual({ scanned: 1, refiled: 0, older: 1, unindexable: 0 });
    expect(await filed()).toBe(0);
  });
});
