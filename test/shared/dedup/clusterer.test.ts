import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { candidateDigest } from "../../../shared/dedup/candidate-digest";
import { addArticle, articleBandKeys } from "../../../shared/dedup/clusterer";
import type { DedupArticle } from "../../../shared/dedup/dedup-store";
import { computeFingerprint } from "../../../shared/dedup/fingerprint";
import { MemoryDedupStore } from "../../../shared/dedup/memory-dedup-store";
import { matchParams } from "../../../shared/dedup/params";
import { clusterRecordSchema } from "../../../shared/records";
import { article, paragraph } from "./texts";

const now = () => "2024-03-05T00:00:00.000Z";

function doc(id: string, text: string, published_at: string | null, publication = `pub-${id}`): DedupArticle {
  return {
    article_id: id,
    url: `https://${publication}.example/${id}`,
    publication,
    source_id: `src-${publication}`,
    headline: `headline ${id}`,
    published_at: published_at && new Date(published_at).toISOString(),
    collected_at: "2024-03-04T00:00:00.000Z",
    fingerprint: computeFingerprint(text),
  };
}

/** Partition as a sorted list of sorted member lists (ids are not compared, membership is). */
function partition(store: MemoryDedupStore): string[][] {
  const groups = new Map<string, string[]>();
  for (const a of store.assignments())
    groups.set(a.cluster_id, [...(groups.get(a.cluster_id) ?? []), a.article_id]);
  return [...groups.values()].map((g) => g.sort()).sort((x, y) => (x[0]! < y[0]! ? -1 : 1));
}

describe("addArticle", () => {
  it("clusters copies, keeps other stories apart, and writes valid records", async () => {
    const store = new MemoryDedupStore();
    const a = await addArticle(store, doc("a1", article(1), "2024-03-01T10:00:00Z"), { now });
    const b = await addArticle(store, doc("a2", `By Jane Roe\n\n${article(1)}`, "2024-03-01T11:00:00Z"), {
      now,
    });
    const c = await addArticle(store, doc("a3", article(2), "2024-03-01T12:00:00Z"), { now });
    expect(b.cluster_id).toBe(a.cluster_id);
    expect(c.cluster_id).not.toBe(a.cluster_id);
    const { summaries, members } = store.snapshot();
    for (const r of [...summaries, ...members]) clusterRecordSchema.parse(r);
    const s = summaries.find((x) => x.cluster_id === a.cluster_id)!;
    expect(s).toMatchObject({ article_count: 2, outlet_count: 2, canonical_article_id: "a1" });
  });

  it("records how long the story took to reach ten outlets", async () => {
    const store = new MemoryDedupStore();
    let id = "";
    for (let i = 0; i < 12; i++) {
      const at = new Date(Date.parse("2024-03-01T10:00:00Z") + i * 600_000).toISOString();
      id = (await addArticle(store, doc(`o${i}`, article(1), at, `outlet-${i}`), { now })).cluster_id;
      const s = store.snapshot().summaries.find((x) => x.cluster_id === id)!;
      // Nine outlets: not yet; the tenth is 90 minutes after the first, and later ones keep that.
      expect(s.seconds_to_10_outlets).toBe(i < 9 ? null : 5400);
    }
    // Crawled last, published five minutes after the first: the story had ten outlets at 11:20.
    await addArticle(store, doc("late", article(1), "2024-03-01T10:05:00Z", "outlet-late"), { now });
    const s = store.snapshot().summaries.find((x) => x.cluster_id === id)!;
    expect(s).toMatchObject({ outlet_count: 13, seconds_to_10_outlets: 4800 });
  });

  it("stops filing articles in a full (hot) bucket, yet still clusters every copy", async () => {
    const store = new MemoryDedupStore();
    const params = { ...matchParams, maxBucketCandidates: 3 };
    const copies = Array.from({ length: 6 }, (_, i) =>
      doc(`h${i}`, `${article(1)}\n\nCredit line ${i}.`, "2024-03-01T10:00:00Z"),
    );
    const ids = new Set<string>();
    for (const c of copies) ids.add((await addArticle(store, c, { now, params })).cluster_id);
    expect(ids.size).toBe(1);
    expect(store.snapshot().summaries.find((s) => !s.merged_into)?.article_count).toBe(6);
    // No bucket holds more than the cap, however many copies share it.
    for (const k of articleBandKeys(copies[0]!.fingerprint, params)) {
      const hits = await store.queryBuckets([k], 100);
      expect(hits.ids.length).toBeLessThanOrEqual(3);
    }
  });

  it("turns away a stranger that shares a band without reading its fingerprint", async () => {
    // A store that records which fingerprints the clusterer reads.
    class ReadCounting extends MemoryDedupStore {
      readonly read: string[] = [];
      override async getArticles(ids: readonly string[]) {
        this.read.push(...ids);
        return super.getArticles(ids);
      }
    }
    const store = new ReadCounting();
    const story = doc("story", article(41), "2024-03-01T10:00:00Z");
    const stranger = doc("stranger", article(42), "2024-03-01T09:00:00Z");
    await addArticle(store, stranger, { now });
    // The stranger also sits in every bucket of the story (a band shared by chance, many times over).
    await store.addToBuckets(
      articleBandKeys(story.fingerprint),
      "stranger",
      candidateDigest(stranger.fingerprint),
    );
    const copy = doc("copy", article(43), "2024-03-01T11:00:00Z");
    await addArticle(store, copy, { now });
    await store.addToBuckets(articleBandKeys(story.fingerprint), "copy", candidateDigest(story.fingerprint));
    store.read.length = 0;
    await addArticle(store, story, { now });
    expect(store.read).not.toContain("stranger");
    // An entry whose digest resembles the story's is read and judged (and rejected on its text).
    expect(store.read).toContain("copy");
    expect(partition(store)).toEqual([["copy"], ["story"], ["stranger"]]);
  });

  it("reads the story of a candidate only once its text is confirmed a copy", async () => {
    // A store that records which stories the clusterer reads.
    class StoryReads extends MemoryDedupStore {
      readonly read: string[] = [];
      override async getCluster(cluster_id: string) {
        this.read.push(cluster_id);
        return super.getCluster(cluster_id);
      }
    }
    const store = new StoryReads();
    const story = doc("story", article(51), "2024-03-01T10:00:00Z");
    // Ten other stories filed in every bucket of this one, with digests like its own: each is read and
    // judged on its text (not a copy); a copy of the story is among them.
    const others = Array.from({ length: 10 }, (_, i) =>
      doc(`other${i}`, article(60 + i), "2024-03-01T09:00:00Z"),
    );
    const copy = doc("copy", `${article(51)}\n\nCredit line.`, "2024-03-01T09:30:00Z");
    for (const d of [...others, copy]) {
      await addArticle(store, d, { now });
      await store.addToBuckets(
        articleBandKeys(story.fingerprint),
        d.article_id,
        candidateDigest(story.fingerprint),
      );
    }
    store.read.length = 0;
    await addArticle(store, story, { now });
    expect(partition(store).find((g) => g.includes("story"))).toEqual(["copy", "story"]);
    // Before, every candidate's story was looked up first: 2 reads each, 20 for the ten that are no copy.
    const otherStories = new Set(others.map((d) => `c-${d.article_id}`));
    expect(store.read.filter((id) => otherStories.has(id))).toEqual([]);
  });

  it("is idempotent: adding the same article twice changes nothing", async () => {
    const store = new MemoryDedupStore();
    await addArticle(store, doc("a1", article(1), "2024-03-01T10:00:00Z"), { now });
    const d = doc("a2", article(1, 6), "2024-03-01T11:00:00Z");
    const first = await addArticle(store, d, { now });
    const before = JSON.stringify(store.snapshot());
    const again = await addArticle(store, d, { now });
    expect(again.cluster_id).toBe(first.cluster_id);
    expect(again.merged).toEqual([]);
    expect(JSON.stringify(store.snapshot())).toBe(before);
  });

  it("makes an earlier copy that arrives late the canonical article", async () => {
    const store = new MemoryDedupStore();
    const { cluster_id } = await addArticle(store, doc("late", article(4), "2024-03-02T09:00:00Z"), { now });
    await addArticle(store, doc("early", `${article(4)}\n\nAdvertisement`, "2024-03-01T08:00:00Z"), { now });
    const s = await store.getCluster(cluster_id);
    expect(s).toMatchObject({
      cluster_id,
      canonical_article_id: "early",
      first_published_at: "2024-03-01T08:00:00.000Z",
      last_published_at: "2024-03-02T09:00:00.000Z",
      article_count: 2,
    });
  });

  it("merges two clusters bridged by a later article and retires one id with merged_into", async () => {
    const store = new MemoryDedupStore();
    // Each half has J ≈ 0.5 to the bridge, a candidate only with LSH luck (p ≈ 0.6): take the first
    // seed whose halves both share a band with the bridge, so the test is about merging.
    const shares = (a: string, b: string) => {
      const kb = new Set(articleBandKeys(computeFingerprint(b)));
      return articleBandKeys(computeFingerprint(a)).some((k) => kb.has(k));
    };
    let seed = 10;
    while (
      !shares(article(seed, 6), `${article(seed, 6)}\n\n${article(seed, 6, 6)}`) ||
      !shares(article(seed, 6, 6), `${article(seed, 6)}\n\n${article(seed, 6, 6)}`)
    )
      seed++;
    expect(seed).toBeLessThan(40);
    const first = article(seed, 6);
    const second = article(seed, 6, 6);
    const x = await addArticle(store, doc("x", first, "2024-03-01T10:00:00Z"), { now });
    const y = await addArticle(store, doc("y", second, "2024-03-01T09:00:00Z"), { now });
    expect(x.cluster_id).not.toBe(y.cluster_id);
    const z = await addArticle(store, doc("z", `${first}\n\n${second}`, "2024-03-01T11:00:00Z"), { now });
    const [winner, loser] = [x.cluster_id, y.cluster_id].sort() as [string, string];
    expect(z).toEqual({ cluster_id: winner, merged: [loser] });
    expect(await store.getCluster(loser)).toMatchObject({ merged_into: winner });
    const w = await store.getCluster(winner);
    expect(w).toMatchObject({
      article_count: 3,
      outlet_count: 3,
      canonical_article_id: "y",
      source_id: "src-pub-y",
    });
    expect(w?.merged_into).toBeNull();
    // The retired story counts nowhere: its outlet items are gone, the winner holds all three.
    const outlets = async (id: string) => {
      const out: string[] = [];
      for await (const o of store.listOutlets(id)) out.push(o.source_id);
      return out.sort();
    };
    expect(await outlets(loser)).toEqual([]);
    expect(await outlets(winner)).toEqual(["src-pub-x", "src-pub-y", "src-pub-z"]);
    const members = store.snapshot().members;
    for (const m of members) clusterRecordSchema.parse(m);
    // The moved member says where it came from (its REMOVE there is the other half of the move).
    const movedId = loser === y.cluster_id ? "y" : "x";
    expect(members.find((m) => m.article_id === movedId)?.moved_from).toBe(loser);
    expect(
      members
        .filter((m) => m.cluster_id === winner)
        .map((m) => m.article_id)
        .sort(),
    ).toEqual(["x", "y", "z"]);
    expect(members.some((m) => m.cluster_id === loser)).toBe(false);
    expect((await store.getStory("y"))?.cluster_id).toBe(winner);
  });

  it("finishes an article whose first attempt crashed before founding its cluster", async () => {
    const store = new MemoryDedupStore();
    const text = article(41, 6);
    await addArticle(store, doc("a1", text, "2024-03-01T10:00:00Z"), { now });
    // The first attempt for b1 claimed c-b1 (it saw no copy yet) and died before creating it.
    const b1 = doc("b1", text, "2024-03-01T11:00:00Z");
    await store.claimArticle({ ...b1, cluster_id: "c-b1", similarity: 1 });
    // The retry keeps the claim (a concurrent delivery may be acting on it), founds c-b1, and unions
    // it with the copy's story: one story, the smaller id, each article counted once.
    expect(await addArticle(store, b1, { now })).toEqual({ cluster_id: "c-a1", merged: ["c-b1"] });
    expect(await store.getCluster("c-a1")).toMatchObject({ article_count: 2, merged_into: null });
    expect(await store.getCluster("c-b1")).toMatchObject({ merged_into: "c-a1" });
    expect(await store.getStory("b1")).toEqual({ cluster_id: "c-a1", done: true });
  });

  it("never merges short articles, even identical ones", async () => {
    const store = new MemoryDedupStore();
    const text = "Road closed after storm. More soon.";
    const a = await addArticle(store, doc("s1", text, null), { now });
    const b = await addArticle(store, doc("s2", text, null), { now });
    expect(a.cluster_id).not.toBe(b.cluster_id);
  });

  it("gives the same partition whatever the arrival order", async () => {
    // Three stories with copies, truncations, a bridge between two halves, and unrelated articles.
    const docs: DedupArticle[] = [
      doc("s1-orig", article(21, 10), "2024-03-01T10:00:00Z"),
      doc("s1-trunc", article(21, 4), "2024-03-01T11:00:00Z"),
      doc("s1-byline", `By A. Writer\n\n${article(21, 10)}\n\nAdvertisement`, "2024-03-01T12:00:00Z"),
      doc("s1-more", `${article(21, 10)}\n\n${paragraph(90, 1)}`, null),
      // Each half of the bridge has J ≈ 0.5 to it: LSH makes such a pair a candidate with p ≈ 0.6
      // (7×3 bands), so these texts are ones whose halves do share bands (asserted below): the
      // test is about arrival order, not LSH luck.
      doc("s2-a", article(33, 6), "2024-03-01T10:00:00Z"),
      doc("s2-b", article(33, 6, 6), "2024-03-01T10:30:00Z"),
      doc("s2-bridge", `${article(33, 6)}\n\n${article(33, 6, 6)}`, "2024-03-01T13:00:00Z"),
      doc("s3", article(23, 8), "2024-03-02T10:00:00Z"),
      doc("s3-copy", article(23, 7), "2024-03-02T11:00:00Z"),
      doc("solo-1", article(24, 8), "2024-03-02T10:00:00Z"),
      doc("solo-2", article(25, 8), "2024-03-02T10:00:00Z"),
      doc("short", "Brief: storm warning tonight.", null),
    ];
    const keysOf = (id: string) => articleBandKeys(docs.find((d) => d.article_id === id)!.fingerprint);
    const bridgeKeys = new Set(keysOf("s2-bridge"));
    expect(keysOf("s2-a").some((k) => bridgeKeys.has(k))).toBe(true);
    expect(keysOf("s2-b").some((k) => bridgeKeys.has(k))).toBe(true);
    const reference = new MemoryDedupStore();
    for (const d of docs) await addArticle(reference, d, { now });
    const expected = partition(reference);
    expect(expected).toContainEqual(["s1-byline", "s1-more", "s1-orig", "s1-trunc"]);
    expect(expected).toContainEqual(["s2-a", "s2-b", "s2-bridge"]);
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(docs, { minLength: docs.length }), async (order) => {
        const store = new MemoryDedupStore();
        for (const d of order) await addArticle(store, d, { now });
        expect(partition(store)).toEqual(expected);
        // Summaries of live clusters count their members exactly.
        const live = store.snapshot().summaries.filter((s) => !s.merged_into);
        expect(live.reduce((n, s) => n + s.article_count, 0)).toBe(docs.length);
      }),
      { numRuns: 25 },
    );
  });
});
