/**
 * Concurrent addArticle calls, interleaved by fast-check's scheduler at every store call (each call
 * is atomic, as one DynamoDB request is): copies of two stories, some delivered twice at once. Whatever
 * the interleaving, the stored state is the serial one: the same partition, every article's story
 * pointer on its live cluster, live clusters holding exactly their articles' members and counting
 * them once, retired clusters holding none.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../../shared/dedup/clusterer";
import type { DedupArticle, DedupStore } from "../../../shared/dedup/dedup-store";
import { computeFingerprint } from "../../../shared/dedup/fingerprint";
import { MemoryDedupStore } from "../../../shared/dedup/memory-dedup-store";
import { addArticleRetrying } from "../../../shared/dedup/retry-on-conflict";
import { article } from "./texts";

function copy(id: string, story: number, publication: string): DedupArticle {
  return {
    article_id: id,
    url: `https://${publication}.example/${id}`,
    publication,
    source_id: `src-${publication}`,
    headline: `story ${story}`,
    published_at: "2024-03-01T10:00:00.000Z",
    collected_at: "2024-03-01T11:00:00.000Z",
    fingerprint: computeFingerprint(article(story, 6)),
  };
}

// Ids in an order unrelated to arrival, so founders are not always the smallest ids.
const docs = [
  copy("k3", 61, "p1"),
  copy("b7", 61, "p2"),
  copy("f1", 61, "p3"),
  copy("m5", 62, "p1"),
  copy("a9", 62, "p4"),
];

/** The store with every call deferred to the scheduler, so concurrent calls run in any order. */
function scheduled(store: MemoryDedupStore, s: fc.Scheduler): DedupStore {
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "listMembers" || prop === "listOutlets") {
        return async function* (...args: unknown[]) {
          await s.schedule(Promise.resolve(), String(prop));
          yield* value.apply(target, args);
        };
      }
      return async (...args: unknown[]) => {
        await s.schedule(Promise.resolve(), String(prop));
        return value.apply(target, args);
      };
    },
  }) as DedupStore;
}

async function partition(store: MemoryDedupStore): Promise<string[]> {
  const groups = new Map<string, string[]>();
  for (const a of store.assignments())
    groups.set(a.cluster_id, [...(groups.get(a.cluster_id) ?? []), a.article_id]);
  return [...groups.values()].map((g) => g.sort().join(",")).sort();
}

describe("addArticle under concurrent workers", () => {
  it("stores the serial result whatever the interleaving, with duplicate deliveries", async () => {
    const serial = new MemoryDedupStore();
    for (const d of docs) await addArticle(serial, d);
    const expected = await partition(serial);
    expect(expected).toEqual(["a9,m5", "b7,f1,k3"]);
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.subarray(
          docs.map((d) => d.article_id),
          { maxLength: 3 },
        ),
        async (s, twice) => {
          const memory = new MemoryDedupStore();
          const store = scheduled(memory, s);
          const deliveries = docs.flatMap((d) => (twice.includes(d.article_id) ? [d, d] : [d]));
          const done = Promise.all(
            deliveries.map((d) => addArticleRetrying(store, d, { attempts: 100, sleep: async () => {} })),
          );
          await s.waitFor(done);
          expect(await partition(memory)).toEqual(expected);
          const { summaries, members } = memory.snapshot();
          const live = new Map(summaries.filter((x) => !x.merged_into).map((x) => [x.cluster_id, x]));
          for (const d of docs) {
            const story = await memory.getStory(d.article_id);
            expect(story?.done).toBe(true);
            // The pointer itself, not only its merged_into chain, names the live cluster.
            expect(live.has(story!.cluster_id)).toBe(true);
            const held = members.filter((m) => m.article_id === d.article_id);
            expect(held.map((m) => m.cluster_id)).toEqual([story!.cluster_id]);
          }
          for (const [cid, summary] of live) {
            expect(summary.article_count).toBe(members.filter((m) => m.cluster_id === cid).length);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
