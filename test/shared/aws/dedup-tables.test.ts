/**
 * The dedup store on DynamoDB Local: whatever the arrival order and however many workers run at
 * once, the clusters equal the serial (in-memory) result, counts add up, and redelivery changes
 * nothing.
 */

import { ScanCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { createLocalResources } from "../../../infra/local/resources";
import { LocalRuntime } from "../../../infra/local/runtime";
import { destroyClients, makeClients } from "../../../shared/aws/clients";
import { type DedupTableOptions, DynamoDedupStore } from "../../../shared/aws/dedup-tables";
import { articleStories } from "../../../shared/aws/fingerprint-item";
import { candidateDigest } from "../../../shared/dedup/candidate-digest";
import { addArticle, articleBandKeys, clusterIdFor } from "../../../shared/dedup/clusterer";
import type { DedupArticle, DedupStore } from "../../../shared/dedup/dedup-store";
import { MemoryDedupStore } from "../../../shared/dedup/memory-dedup-store";
import { addArticleRetrying } from "../../../shared/dedup/retry-on-conflict";
import type { ClusterMember, ClusterSummary } from "../../../shared/records";
import { dedupStoreAt } from "../../support/dedup-store-at";
import { dedupMessageOf, syntheticStories } from "../../support/synthetic-stories";
import { uniquePrefix } from "../../support/unique-prefix";

// Pairs are what a race splits for good (a third copy would bridge them), so most stories are pairs.
const corpus: DedupArticle[] = [
  ...syntheticStories({ stories: 6, copies: 1, singletons: 2, seed: 7, prefix: "p" }),
  ...syntheticStories({ stories: 1, copies: 4, singletons: 0, seed: 8, prefix: "m" }),
].map(dedupMessageOf);

/** The partition as a set of sorted member lists, independent of cluster ids. */
function partition(assign: Map<string, string>): string[] {
  const groups = new Map<string, string[]>();
  for (const [a, c] of assign) groups.set(c, [...(groups.get(c) ?? []), a]);
  return [...groups.values()].map((g) => g.sort().join(",")).sort();
}

async function serialPartition(): Promise<string[]> {
  const store = new MemoryDedupStore();
  for (const a of corpus) await addArticle(store, a);
  return partition(new Map([...store.assignments()].map((x) => [x.article_id, x.cluster_id])));
}

async function freshStore(options: DedupTableOptions = {}) {
  const clients = makeClients(inject("endpoints"));
  const res = await createLocalResources(clients, uniquePrefix("dedup"));
  const store = new DynamoDedupStore(
    clients.doc,
    {
      fingerprints: res.tables.fingerprints,
      buckets: res.tables.buckets,
      clusters: res.tables.clusters,
    },
    options,
  );
  return { clients, res, store };
}

async function liveState(store: DedupStore, ids: readonly string[]) {
  const assign = new Map<string, string>();
  const live = new Map<string, ClusterSummary>();
  for (const id of ids) {
    const a = await store.getArticle(id);
    if (!a) throw new Error(`article ${id} missing`);
    let cid = a.cluster_id;
    for (let s = await store.getCluster(cid); s?.merged_into; s = await store.getCluster(cid))
      cid = s.merged_into;
    assign.set(id, cid);
    const s = await store.getCluster(cid);
    if (s) live.set(cid, s);
  }
  const members = new Map<string, ClusterMember[]>();
  for (const cid of live.keys()) {
    const ms: ClusterMember[] = [];
    for await (const m of store.listMembers(cid)) ms.push(m);
    members.set(cid, ms);
  }
  return { assign, live, members };
}

describe("DynamoDedupStore", () => {
  it("gives the serial clusters for any arrival order, duplicate deliveries and 4 concurrent workers", async () => {
    const expected = await serialPartition();
    expect(expected.length).toBe(9); // 7 stories + 2 singletons: the corpus itself is sane
    await fc.assert(
      // Shuffled ids (not articles) keep a counterexample readable.
      fc.asyncProperty(
        fc.shuffledSubarray(
          corpus.map((a) => a.article_id),
          { minLength: corpus.length },
        ),
        // SQS delivers at least once: some articles arrive twice, back to back, so two workers
        // handle the same article at the same time.
        fc.shuffledSubarray(
          corpus.map((a) => a.article_id),
          { minLength: 3, maxLength: 6 },
        ),
        async (order, twice) => {
          const { clients, store } = await freshStore();
          try {
            const byId = new Map(corpus.map((a) => [a.article_id, a]));
            const queue = order
              .flatMap((id) => (twice.includes(id) ? [id, id] : [id]))
              .map((id) => byId.get(id)!);
            const worker = async () => {
              for (let a = queue.shift(); a; a = queue.shift())
                await addArticleRetrying(store, a, { attempts: 20 });
            };
            await Promise.all([worker(), worker(), worker(), worker()]);
            const { assign, live, members } = await liveState(
              store,
              corpus.map((a) => a.article_id),
            );
            expect(partition(assign)).toEqual(expected);
            for (const [cid, s] of live) {
              const ms = members.get(cid) ?? [];
              expect(ms.length).toBe(s.article_count);
              expect(new Set(ms.map((m) => m.publication)).size).toBe(s.outlet_count);
            }
          } finally {
            destroyClients(clients);
          }
        },
      ),
      { numRuns: 3, seed: 42 },
    );
  });

  it("ignores a redelivered article and moves the canonical to an earlier copy that arrives late", async () => {
    const { clients, res, store } = await freshStore();
    try {
      const story = corpus.filter((a) => a.article_id.startsWith("ms0-"));
      const [earliest, ...rest] = [...story].sort((a, b) =>
        (a.published_at ?? "").localeCompare(b.published_at ?? ""),
      );
      for (const a of rest) await addArticle(store, a);
      const first = await addArticle(store, rest[0]!);
      const before = await store.getCluster(first.cluster_id);
      const again = await addArticle(store, rest[1]!);
      expect(again.cluster_id).toBe(first.cluster_id);
      expect((await store.getCluster(first.cluster_id))?.revision).toBe(before?.revision);
      await addArticle(store, earliest!);
      const after = await store.getCluster(first.cluster_id);
      expect(after?.cluster_id).toBe(first.cluster_id); // the cluster keeps its id as it grows
      expect(after?.canonical_article_id).toBe(earliest!.article_id);
      expect(after?.article_count).toBe(story.length);
      // One item per article in Fingerprints, its fingerprint: no per-article story state (version 7).
      const items =
        (await clients.doc.send(new ScanCommand({ TableName: res.tables.fingerprints }))).Items ?? [];
      expect(items.map((i) => i.article_id).sort()).toEqual(story.map((a) => a.article_id).sort());
      expect(articleStories(items, [])).toEqual(new Map(story.map((a) => [a.article_id, first.cluster_id])));
    } finally {
      destroyClients(clients);
    }
  });

  it("files bucket entries, and writes the fingerprint item, with a TTL of the LSH retention from the store's clock", async () => {
    const nowMs = Date.parse("2026-12-02T00:00:00Z");
    const { clients, res, store } = await freshStore({ lshRetentionDays: 30, nowMs: () => nowMs });
    try {
      await addArticle(store, corpus[0]!);
      const keys = articleBandKeys(corpus[0]!.fingerprint);
      const items = (await clients.doc.send(new ScanCommand({ TableName: res.tables.buckets }))).Items ?? [];
      expect(items.length).toBe(keys.length);
      const digest = candidateDigest(corpus[0]!.fingerprint);
      for (const i of items) {
        expect(i.expires_at).toBe(nowMs / 1000 + 30 * 86_400);
        // Each entry carries the article's candidate digest, and a look-up returns it.
        expect(i.digest).toEqual(digest);
      }
      // The fingerprint expires with its bucket entries: nothing reads it but through them.
      const fingerprints =
        (await clients.doc.send(new ScanCommand({ TableName: res.tables.fingerprints }))).Items ?? [];
      expect(fingerprints.map((f) => [f.article_id, f.expires_at])).toEqual([
        [corpus[0]!.article_id, nowMs / 1000 + 30 * 86_400],
      ]);
      const hits = await store.queryBuckets(keys, 10);
      expect(hits.ids).toEqual([corpus[0]!.article_id]);
      expect(hits.digests.get(corpus[0]!.article_id)).toEqual(digest);
    } finally {
      destroyClients(clients);
    }
  });

  it("founds a story with its outlet written and no read of the outlet items (its tally is its own)", async () => {
    const { clients, res, store } = await freshStore();
    const calls: string[] = [];
    clients.doc.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { TableName?: string; KeyConditionExpression?: string };
        if (input.TableName === res.tables.clusters)
          calls.push(
            `${String(context.commandName).replace(/Command$/, "")} ${input.KeyConditionExpression ?? ""}`.trim(),
          );
        return next(args);
      },
      { step: "initialize", name: "countClusterCalls" },
    );
    try {
      const { cluster_id } = await addArticle(store, corpus[0]!);
      expect(calls.filter((c) => c.startsWith("Query"))).toEqual([]);
      const outlets = await (async () => {
        const out = [];
        for await (const o of store.listOutlets(cluster_id)) out.push(o.source_id);
        return out;
      })();
      expect(outlets).toEqual([corpus[0]!.source_id]);
      expect(await store.getCluster(cluster_id)).toMatchObject({ outlet_count: 1, article_count: 1 });
    } finally {
      destroyClients(clients);
    }
  });

  it("keeps each outlet's earliest time, in any order, and tallies the tenth", async () => {
    const { clients, store } = await freshStore();
    try {
      const at = (min: number) => new Date(Date.parse("2026-12-01T10:00:00Z") + min * 60_000).toISOString();
      const outlet = (i: number, carried_at: string) => ({
        source_id: `s${i}`,
        publication: `Outlet ${i}`,
        carried_at,
      });
      // outlet 0 is seen late first, then early, then late again.
      await store.addOutlets("c-x", [outlet(0, at(500))]);
      await store.addOutlets("c-x", [outlet(0, at(0)), outlet(1, at(700))]);
      expect(await store.addOutlets("c-x", [outlet(0, at(900))])).toEqual({ count: 2, tenthAt: null });
      const more = Array.from({ length: 9 }, (_, i) => outlet(i + 2, at(i + 1)));
      expect(await store.addOutlets("c-x", more)).toEqual({ count: 11, tenthAt: at(9) });
      const listed = [];
      for await (const o of store.listOutlets("c-x")) listed.push(o);
      expect(listed.find((o) => o.source_id === "s0")).toEqual(outlet(0, at(0)));
      await store.removeOutlets("c-x", ["s0", "s1"]);
      let left = 0;
      for await (const _ of store.listOutlets("c-x")) left++;
      expect(left).toBe(9);
    } finally {
      destroyClients(clients);
    }
  });

  it("treats a copy whose story expired as absent: a late copy founds its own, a claim of it is made again", async () => {
    const runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("dedupttl"),
    });
    const day = 86_400_000;
    const t0 = Date.parse("2026-11-30T12:00:00Z");
    const t1 = t0 + 29.5 * day;
    const at = dedupStoreAt(runtime);
    try {
      const [c0, c1, c2, c3] = syntheticStories({
        stories: 1,
        copies: 3,
        singletons: 0,
        seed: 9,
        prefix: "x",
      }).map(dedupMessageOf);
      const { store, now } = at(t0);
      const old = (await addArticle(store, c0!, { now })).cluster_id;
      expect((await addArticle(store, c2!, { now })).cluster_id).toBe(old);
      // The archive's hot window on the story's items: a day before the claims' (they count from the
      // claim, the window from the collection). The fingerprints and bucket entries outlive the story.
      for (const item of (await runtime.items("clusters")).filter((i) => i.cluster_id === old))
        await runtime.clients.doc.send(
          new UpdateCommand({
            TableName: runtime.resources.tables.clusters,
            Key: { cluster_id: item.cluster_id, item: item.item },
            UpdateExpression: "SET expires_at = :e",
            ExpressionAttributeValues: { ":e": (t0 + 29 * day) / 1000 },
          }),
        );

      // Past the expiry, before TTL deleted anything: the story reads as gone, and a copy founds its own.
      const late = at(t1);
      expect(await late.store.getCluster(old)).toBeNull();
      const own = await addArticle(late.store, c1!, { now: late.now });
      expect(own.cluster_id).not.toBe(old);
      expect(await late.store.getCluster(own.cluster_id)).toMatchObject({
        article_count: 1,
        outlet_count: 1,
      });
      // The expired summary was not written again (its late join would have kept the old expiry).
      expect(
        (await runtime.items("clusters")).find((i) => i.cluster_id === old && i.item === "summary"),
      ).toMatchObject({
        article_count: 2,
        expires_at: (t0 + 29 * day) / 1000,
      });

      // TTL deletes the story (the fingerprints stay): a copy joins the live story, not the gone one.
      expect((await runtime.sweepExpired(new Date(t1))).clusters).toBeGreaterThan(0);
      expect((await addArticle(late.store, c3!, { now: late.now })).cluster_id).toBe(own.cluster_id);
      // c2 delivered again (a retry, a re-check): its claim names the gone story. It is claimed again (it
      // founds its own, which the union merges with its live copies) and the message is not dead-lettered.
      const again = await addArticle(late.store, c2!, { now: late.now });
      const live = await late.store.getCluster(again.cluster_id);
      expect(live).toMatchObject({ merged_into: null, article_count: 3 });
      expect(again.cluster_id).toBe(own.cluster_id);
      expect((await late.store.getArticle(c2!.article_id))?.cluster_id).toBe(clusterIdFor(c2!.article_id));
      const members = [];
      for await (const m of late.store.listMembers(again.cluster_id)) members.push(m.article_id);
      expect(members.sort()).toEqual([c1!, c2!, c3!].map((a) => a.article_id).sort());
    } finally {
      await runtime.close();
    }
  });
});
