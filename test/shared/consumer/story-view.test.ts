import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeClusterStreamRecord } from "../../../shared/consumer/decode-stream-record";
import { StoryView } from "../../../shared/consumer/story-view";
import { member, outlet, streamRecord, summary, ttlExpiry } from "./cluster-records";

/** A merge chain as storytrail writes it: c-c founded, c-b founded, c-b grows, c-c retires into c-b
 * (its member moves, its outlet goes), then c-b retires into c-a. */
function chainRecords() {
  const s = {
    a1: summary("c-a", { canonical_article_id: "a", source_id: "s1" }),
    b1: summary("c-b", { canonical_article_id: "b" }),
    b2: summary("c-b", { canonical_article_id: "b", article_count: 2, outlet_count: 2, revision: 2 }),
    c1: summary("c-c", { canonical_article_id: "c" }),
  };
  const b3 = { ...s.b2, article_count: 3, outlet_count: 3, revision: 3 };
  const c2 = { ...s.c1, merged_into: "c-b", revision: 2 };
  const b4 = { ...b3, merged_into: "c-a", revision: 4 };
  const a2 = { ...s.a1, article_count: 4, outlet_count: 3, revision: 2 };
  return [
    streamRecord("INSERT", { new: s.a1 }),
    streamRecord("INSERT", { new: member("c-a", "a") }),
    streamRecord("INSERT", { new: outlet("c-a", "s1") }),
    streamRecord("INSERT", { new: s.c1 }),
    streamRecord("INSERT", { new: member("c-c", "c") }),
    streamRecord("INSERT", { new: outlet("c-c", "s3") }),
    streamRecord("INSERT", { new: s.b1 }),
    streamRecord("INSERT", { new: member("c-b", "b") }),
    streamRecord("INSERT", { new: outlet("c-b", "s2") }),
    streamRecord("INSERT", { new: member("c-b", "b2", { similarity: 0.9 }) }),
    streamRecord("MODIFY", { old: s.b1, new: s.b2 }),
    // c-c into c-b
    streamRecord("INSERT", { new: outlet("c-b", "s3") }),
    streamRecord("MODIFY", { old: s.b2, new: b3 }),
    streamRecord("MODIFY", { old: s.c1, new: c2 }),
    streamRecord("INSERT", { new: member("c-b", "c", { moved_from: "c-c" }) }),
    streamRecord("REMOVE", { old: member("c-c", "c") }),
    streamRecord("REMOVE", { old: outlet("c-c", "s3") }),
    // c-b into c-a; an earlier time for s1 arrives with it
    streamRecord("INSERT", { new: outlet("c-a", "s2") }),
    streamRecord("INSERT", { new: outlet("c-a", "s3") }),
    streamRecord("MODIFY", {
      old: outlet("c-a", "s1"),
      new: outlet("c-a", "s1", { carried_at: "2026-11-30T12:00:00.000Z" }),
    }),
    streamRecord("MODIFY", { old: s.a1, new: a2 }),
    streamRecord("MODIFY", { old: b3, new: b4 }),
    ...["b", "b2", "c"].flatMap((id) => [
      streamRecord("INSERT", { new: member("c-a", id, { moved_from: "c-b" }) }),
      streamRecord("REMOVE", { old: member("c-b", id) }),
    ]),
    ...["s2", "s3"].map((src) => streamRecord("REMOVE", { old: outlet("c-b", src) })),
  ];
}

function viewOf(records: ReturnType<typeof chainRecords>) {
  const view = new StoryView();
  for (const r of records) view.apply(decodeClusterStreamRecord(r));
  return view;
}

describe("StoryView", () => {
  it("ends a merge chain with one live story holding every member and outlet once", () => {
    const view = viewOf(chainRecords());
    const stories = view.stories();
    expect(stories.map((s) => s.summary.cluster_id)).toEqual(["c-a"]);
    const [a] = stories;
    expect(a?.members.map((m) => m.article_id)).toEqual(["a", "b", "b2", "c"]);
    expect(a?.outlets.map((o) => o.source_id)).toEqual(["s1", "s2", "s3"]);
    expect(a?.outlets[0]?.carried_at).toBe("2026-11-30T12:00:00.000Z");
    expect(a?.summary.article_count).toBe(a?.members.length);
    // A→B then B→C: either retired id resolves to the live story.
    expect(view.resolve("c-c")).toBe("c-a");
    expect(view.story("c-c")?.summary.cluster_id).toBe("c-a");
  });

  it("is the same whatever order the events arrive in", () => {
    const records = chainRecords();
    const expected = viewOf(records).stories();
    fc.assert(
      fc.property(fc.shuffledSubarray(records, { minLength: records.length }), (order) => {
        expect(viewOf(order).stories()).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("builds the same stories from a table scan's items", () => {
    const view = viewOf(chainRecords());
    const items = [
      ...view.stories().flatMap((s) => [s.summary, ...s.members, ...s.outlets]),
      summary("c-b", { merged_into: "c-a", revision: 4 }),
    ];
    expect(StoryView.fromItems(items).stories()).toEqual(view.stories());
  });

  it("drops expired members and outlets from the live story without retiring it or changing its counts", () => {
    const records = chainRecords();
    const before = viewOf(records).story("c-a")!;
    // The archive holds c-a's oldest copies: two members and an outlet leave the hot table by TTL.
    const expiries = [
      ttlExpiry(member("c-a", "a")),
      ttlExpiry(member("c-a", "b", { moved_from: "c-b" })),
      ttlExpiry(outlet("c-a", "s1")),
      // ...and the retired c-c's summary, whose merged_into still leads to c-a.
      ttlExpiry(summary("c-c", { merged_into: "c-b", revision: 2 })),
    ];
    const view = viewOf([...records, ...expiries]);
    const a = view.story("c-a");
    expect(view.stories().map((s) => s.summary.cluster_id)).toEqual(["c-a"]);
    expect(a?.summary).toEqual(before.summary);
    expect(a?.summary.article_count).toBe(4);
    expect(a?.members.map((m) => m.article_id)).toEqual(["b2", "c"]);
    expect(a?.outlets.map((o) => o.source_id)).toEqual(["s2", "s3"]);
    expect(view.resolve("c-c")).toBe("c-a");
    expect(view.story("c-c")?.summary.cluster_id).toBe("c-a");
    // Whatever the order, with the expiries anywhere among the writes.
    const all = [...records, ...expiries];
    fc.assert(
      fc.property(fc.shuffledSubarray(all, { minLength: all.length }), (order) => {
        expect(viewOf(order).stories()).toEqual(view.stories());
      }),
      { numRuns: 300 },
    );
    // The table after the TTL holds exactly what the view shows.
    const hot = [
      ...view.stories().flatMap((s) => [s.summary, ...s.members, ...s.outlets]),
      summary("c-b", { merged_into: "c-a", revision: 4 }),
    ];
    expect(StoryView.fromItems(hot).stories()).toEqual(view.stories());
  });

  it("keeps a story whose every member and outlet expired, and brings back an item written after its expiry", () => {
    const s = summary("c-x", { article_count: 2, outlet_count: 1 });
    const m1 = member("c-x", "x1");
    const m2 = member("c-x", "x2");
    const o = outlet("c-x", "harbor");
    const writes = [s, m1, m2, o].map((r) => streamRecord("INSERT", { new: r }));
    const expiries = [m1, m2, o].map((r) => ttlExpiry(r));
    const view = viewOf([...writes, ...expiries]);
    expect(view.stories()).toEqual([{ summary: s, members: [], outlets: [] }]);
    // The article delivered again after its member expired: dedup writes the member anew.
    const again = streamRecord("INSERT", { new: m1 });
    for (const order of [
      [...writes, ...expiries, again],
      [again, ...expiries, ...writes],
    ])
      expect(viewOf(order).story("c-x")?.members).toEqual([m1]);
    // A removal stays final, unlike an expiry.
    const removed = viewOf([...writes, streamRecord("REMOVE", { old: m1 }), again]);
    expect(removed.story("c-x")?.members).toEqual([m2]);
  });

  it("takes an expired summary out of the live stories, and a rewritten one back in", () => {
    const s = summary("c-y");
    const written = streamRecord("INSERT", { new: s });
    const expired = ttlExpiry(s);
    expect(viewOf([written, expired]).stories()).toEqual([]);
    expect(viewOf([expired, written]).story("c-y")).toBeNull();
    const grown = summary("c-y", { article_count: 2, revision: 2 });
    const later = streamRecord("MODIFY", { old: s, new: grown });
    expect(viewOf([later, expired, written]).story("c-y")?.summary).toEqual(grown);
  });
});
