/**
 * The local TTL sweep on real DynamoDB Local tables: items whose expires_at is at or before the given
 * clock go, later ones stay, and the Clusters stream carries each sweep delete as AWS carries a TTL
 * deletion (a REMOVE with the DynamoDB service as its userIdentity), read as `storytrail tail --raw`
 * reads it, and decoded as an expiry; a delete of storytrail's own stays a removal.
 */
import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { decodeClusterStreamRecord } from "../../../shared/consumer/decode-stream-record";
import { StoryView } from "../../../shared/consumer/story-view";
import { member, outlet, summary } from "../../shared/consumer/cluster-records";
import { uniquePrefix } from "../../support/unique-prefix";

const NOW = new Date("2027-01-15T12:00:00.000Z");
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const PAST = at("2027-01-15T11:59:59Z");
const FUTURE = at("2027-01-16T00:00:00Z");

describe("sweepExpired on DynamoDB Local", () => {
  let runtime: LocalRuntime;

  beforeAll(async () => {
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix("ttlsweep") });
  }, 60_000);

  afterAll(async () => {
    await runtime?.close();
  });

  const put = (table: "clusters" | "buckets" | "hosts", item: Record<string, unknown>) =>
    runtime.clients.doc.send(new PutCommand({ TableName: runtime.resources.tables[table], Item: item }));

  /** The Clusters stream from its start, as `storytrail tail --raw` prints it. */
  async function streamRecords(): Promise<DynamoDBRecord[]> {
    const records: DynamoDBRecord[] = [];
    const sub = await runtime.subscribeClusters(async (e) => {
      records.push(...e.Records);
    });
    await sub.flush();
    await sub.stop();
    return JSON.parse(JSON.stringify(records));
  }

  it("deletes what expired by the clock it is given, stamps the REMOVEs as TTL deletions, keeps the rest", async () => {
    const story = summary("c-a", { article_count: 3, outlet_count: 2 });
    const hot = { ...member("c-a", "a2"), expires_at: FUTURE };
    await put("clusters", story);
    await put("clusters", { ...member("c-a", "a1"), expires_at: PAST });
    await put("clusters", hot);
    await put("clusters", { ...member("c-a", "a3"), expires_at: at("2027-01-15T12:00:00Z") }); // == now
    await put("clusters", { ...outlet("c-a", "harbor"), expires_at: PAST });
    await put("clusters", outlet("c-a", "coast"));
    // As on AWS: a TTL attribute that is not a Number, or more than five years old, is ignored.
    await put("clusters", { ...member("c-a", "a4"), expires_at: String(PAST) });
    await put("clusters", { ...member("c-a", "a5"), expires_at: at("2021-01-01T00:00:00Z") });
    await put("buckets", { band_hash: "b1", article_id: "a1", expires_at: PAST });
    await put("hosts", { host: "harbor.example", expires_at: FUTURE });
    // storytrail's own delete (a merge moving a member away) of an item that also carries a TTL.
    await put("clusters", { ...member("c-a", "a6"), expires_at: FUTURE });
    await runtime.clients.doc.send(
      new DeleteCommand({
        TableName: runtime.resources.tables.clusters,
        Key: { cluster_id: "c-a", item: "member#a6" },
      }),
    );

    expect(await runtime.sweepExpired(NOW)).toEqual({ clusters: 3, buckets: 1 });

    const removes = (await streamRecords()).filter((r) => r.eventName === "REMOVE");
    const byItem = new Map(removes.map((r) => [r.dynamodb?.Keys?.item?.S, r]));
    expect([...byItem.keys()].sort()).toEqual(["member#a1", "member#a3", "member#a6", "outlet#harbor"]);
    for (const item of ["member#a1", "member#a3", "outlet#harbor"])
      expect(byItem.get(item)?.userIdentity, item).toEqual({
        type: "Service",
        principalId: "dynamodb.amazonaws.com",
      });
    expect(byItem.get("member#a6")).not.toHaveProperty("userIdentity");

    const events = (await streamRecords()).map((r) => decodeClusterStreamRecord(r));
    const removals = events.filter((e) => e.type.endsWith("_expired") || e.type.endsWith("_removed"));
    expect(
      removals.map((e) => [e.type, "article_id" in e ? e.article_id : "source_id" in e ? e.source_id : null]),
    ).toEqual(
      expect.arrayContaining([
        ["member_expired", "a1"],
        ["member_expired", "a3"],
        ["outlet_expired", "harbor"],
        ["member_removed", "a6"],
      ]),
    );
    expect(removals).toHaveLength(4);
    // The consumer's view: the story stays whole in its summary, the hot items are its lists.
    const view = new StoryView();
    for (const e of events) view.apply(e);
    const live = view.story("c-a");
    expect(live?.summary).toEqual(story);
    expect(live?.members.map((m) => m.article_id)).toEqual(["a2", "a4", "a5"]);
    expect(live?.outlets.map((o) => o.source_id)).toEqual(["coast"]);

    const get = (table: "clusters" | "hosts", Key: Record<string, string>) =>
      runtime.clients.doc.send(new GetCommand({ TableName: runtime.resources.tables[table], Key }));
    expect((await get("clusters", { cluster_id: "c-a", item: "member#a2" })).Item).toEqual(hot);
    expect((await get("hosts", { host: "harbor.example" })).Item).toBeDefined();
    expect((await get("clusters", { cluster_id: "c-a", item: "summary" })).Item).toBeDefined();

    // Again at the same clock: nothing more. A day later: the member that was still hot.
    expect(await runtime.sweepExpired(NOW)).toEqual({});
    expect(await runtime.sweepExpired(new Date("2027-01-16T00:00:00.000Z"))).toEqual({
      clusters: 1,
      hosts: 1,
    });
    const last = (await streamRecords()).map((r) => decodeClusterStreamRecord(r)).at(-1);
    expect(last).toMatchObject({ type: "member_expired", article_id: "a2", previous: member("c-a", "a2") });
  }, 60_000);
});
