/**
 * Dedup's half of a revision on DynamoDB Local: the member item takes the revision (an
 * `article_revised` event once decoded), a repeated delivery changes nothing, and the article stays in
 * its story even when its revised text is another story's. A member whose item expired (archived) is
 * not added again when its article comes back: the story counts it once.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, inject, it } from "vitest";
import { createLocalResources } from "../../../infra/local/resources";
import { LocalRuntime } from "../../../infra/local/runtime";
import { makeClients } from "../../../shared/aws/clients";
import { DynamoDedupStore } from "../../../shared/aws/dedup-tables";
import { decodeClusterStreamRecord } from "../../../shared/consumer/decode-stream-record";
import { addArticle } from "../../../shared/dedup/clusterer";
import type { ArticleRevision } from "../../../shared/records";
import { reviseMember } from "../../../shared/revisions/member-revision";
import { dedupStoreAt } from "../../support/dedup-store-at";
import { articleRevision } from "../../support/revision-fixtures";
import { dedupMessageOf, syntheticStories } from "../../support/synthetic-stories";
import { uniquePrefix } from "../../support/unique-prefix";
import { streamRecord } from "../consumer/cluster-records";

const revision = (number: number): ArticleRevision =>
  articleRevision({
    number,
    body_changed: true,
    words_added: 13,
    added_sample: "Unions said the deal would be put to a second vote next week.",
    previous_body_key: `revisions/ps0-c0/${number}.txt.gz`,
  });

/** A dedup store on fresh tables of its own. */
async function freshStore(): Promise<DynamoDedupStore> {
  const clients = makeClients(inject("endpoints"));
  const res = await createLocalResources(clients, uniquePrefix("revise"));
  return new DynamoDedupStore(clients.doc, {
    fingerprints: res.tables.fingerprints,
    buckets: res.tables.buckets,
    clusters: res.tables.clusters,
  });
}

describe("reviseMember", () => {
  it("puts the revision on the member item, once, and keeps the article in its story", async () => {
    const store = await freshStore();
    const [a, , b] = syntheticStories({ stories: 2, copies: 1, singletons: 0, seed: 3, prefix: "p" }).map(
      dedupMessageOf,
    );
    const first = await addArticle(store, a!);
    const other = await addArticle(store, b!);
    expect(other.cluster_id).not.toBe(first.cluster_id);
    const otherBefore = await store.getCluster(other.cluster_id);
    const before = await store.getMember(first.cluster_id, a!.article_id);
    expect(before?.latest_revision).toBeNull();

    // Its revised text is the other story's: it stays where it is (stable story ids).
    const revised = { ...a!, fingerprint: b!.fingerprint };
    const never = async () => {
      throw new Error("a claimed article is not clustered again");
    };
    expect(await reviseMember(store, revised, revision(1), never)).toBe(first.cluster_id);
    const after = await store.getMember(first.cluster_id, a!.article_id);
    expect(after?.latest_revision).toEqual(revision(1));
    expect(await store.getMember(other.cluster_id, a!.article_id)).toBeNull();
    expect(await store.getCluster(other.cluster_id)).toEqual(otherBefore);

    // Delivered again, or an older revision late: nothing changes.
    expect(await store.reviseMember(first.cluster_id, a!.article_id, revision(1))).toBe("current");
    await reviseMember(store, revised, revision(1), never);
    expect(await store.getMember(first.cluster_id, a!.article_id)).toEqual(after);

    // On the stream, the member's MODIFY is an article_revised event with the revision.
    const event = decodeClusterStreamRecord(streamRecord("MODIFY", { old: before!, new: after! }));
    expect(event).toMatchObject({
      type: "article_revised",
      revision: revision(1),
      cluster_id: first.cluster_id,
    });
    // A repeated write of the same revision is no new revision.
    expect(decodeClusterStreamRecord(streamRecord("MODIFY", { old: after!, new: after! })).type).toBe(
      "member_updated",
    );
  });

  it("clusters an article whose first message never was, then revises it", async () => {
    const store = await freshStore();
    const [a] = syntheticStories({ stories: 1, copies: 0, singletons: 0, seed: 4, prefix: "q" }).map(
      dedupMessageOf,
    );
    const cluster_id = await reviseMember(store, a!, revision(2), () => addArticle(store, a!));
    expect((await store.getMember(cluster_id, a!.article_id))?.latest_revision?.number).toBe(2);
  });

  it("does not add again a member whose item expired: a re-fetch leaves the story's counts as they were", async () => {
    const runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("reviset"),
    });
    const t0 = Date.parse("2026-11-30T12:00:00Z");
    const t1 = t0 + 2 * 86_400_000;
    const at = dedupStoreAt(runtime);
    try {
      const [c0, c1, c2, c3] = syntheticStories({
        stories: 1,
        copies: 3,
        singletons: 0,
        seed: 5,
        prefix: "e",
      }).map(dedupMessageOf);
      const { store, now } = at(t0);
      const story = (await addArticle(store, c0!, { now })).cluster_id;
      for (const a of [c1!, c2!]) expect((await addArticle(store, a, { now })).cluster_id).toBe(story);
      const counts = { article_count: 3, outlet_count: 3 };
      expect(await store.getCluster(story)).toMatchObject(counts);
      // The founder's and a joiner's member items expire (their day archived); the summary stays.
      for (const a of [c0!, c1!])
        await runtime.clients.doc.send(
          new UpdateCommand({
            TableName: runtime.resources.tables.clusters,
            Key: { cluster_id: story, item: `member#${a.article_id}` },
            UpdateExpression: "SET expires_at = :e",
            ExpressionAttributeValues: { ":e": t0 / 1000 + 86_400 },
          }),
        );
      expect((await runtime.sweepExpired(new Date(t1))).clusters).toBe(2);

      // Both come back: a revision (a lastmod change), and a plain redelivery. Nothing is added again.
      const later = at(t1);
      // The revision's message carries the revised text (here, another copy's: other band keys).
      const revised = { ...c1!, fingerprint: c2!.fingerprint };
      const cluster = () => addArticle(later.store, revised, { now: later.now });
      expect(await reviseMember(later.store, revised, revision(1), cluster)).toBe(story);
      expect((await addArticle(later.store, c0!, { now: later.now })).cluster_id).toBe(story);
      expect(await later.store.getMember(story, c1!.article_id)).toBeNull();
      expect(await later.store.getMember(story, c0!.article_id)).toBeNull();
      const summary = await later.store.getCluster(story);
      expect(summary).toMatchObject({ ...counts, revision: 3 });

      // A first delivery that died between its claim and its join still joins: it was never counted.
      await later.store.claimArticle({ ...c3!, cluster_id: story, similarity: 0.9 });
      expect((await addArticle(later.store, c3!, { now: later.now })).cluster_id).toBe(story);
      expect(await later.store.getCluster(story)).toMatchObject({ article_count: 4, outlet_count: 4 });
    } finally {
      await runtime.close();
    }
  });
});
