import { describe, expect, it } from "vitest";
import {
  clusterStreamRecordSchema,
  decodeClusterStreamRecord,
  StreamRecordError,
} from "../../../shared/consumer/decode-stream-record";
import { member, outlet, streamRecord, summary } from "./cluster-records";

describe("decodeClusterStreamRecord", () => {
  it("decodes an INSERT, which has no OldImage, into story_created", () => {
    const e = decodeClusterStreamRecord(streamRecord("INSERT", { new: summary("c-a1") }));
    expect(e).toMatchObject({ type: "story_created", cluster_id: "c-a1", story: summary("c-a1") });
    expect(e.sequence).toMatch(/^\d+$/);
  });

  it("tells a story that grew from one rewritten without growing", () => {
    const before = summary("c-a1");
    const grown = summary("c-a1", { article_count: 2, outlet_count: 2, revision: 2 });
    expect(decodeClusterStreamRecord(streamRecord("MODIFY", { old: before, new: grown }))).toMatchObject({
      type: "story_grew",
      story: grown,
      previous: before,
    });
    const renamed = summary("c-a1", { canonical_article_id: "a0", revision: 2 });
    expect(decodeClusterStreamRecord(streamRecord("MODIFY", { old: before, new: renamed })).type).toBe(
      "story_updated",
    );
  });

  it("decodes a retirement into story_merged with the id that absorbed it", () => {
    const retired = summary("c-b", { merged_into: "c-a", revision: 3 });
    expect(
      decodeClusterStreamRecord(
        streamRecord("MODIFY", { old: summary("c-b", { revision: 2 }), new: retired }),
      ),
    ).toMatchObject({ type: "story_merged", cluster_id: "c-b", into: "c-a", story: retired });
  });

  it("decodes both halves of a member move: the REMOVE from its keys alone, the INSERT as member_moved", () => {
    const old = member("c-b", "a7");
    const removed = decodeClusterStreamRecord(streamRecord("REMOVE", { old }));
    expect(removed).toMatchObject({
      type: "member_removed",
      cluster_id: "c-b",
      article_id: "a7",
      previous: old,
    });
    const keysOnly = streamRecord("REMOVE", { old });
    delete keysOnly.dynamodb?.OldImage;
    expect(decodeClusterStreamRecord(keysOnly)).toMatchObject({ type: "member_removed", previous: null });
    const moved = member("c-a", "a7", { moved_from: "c-b" });
    expect(decodeClusterStreamRecord(streamRecord("INSERT", { new: moved }))).toMatchObject({
      type: "member_moved",
      cluster_id: "c-a",
      from: "c-b",
      member: moved,
    });
    expect(decodeClusterStreamRecord(streamRecord("INSERT", { new: member("c-a", "a8") })).type).toBe(
      "member_added",
    );
  });

  it("decodes outlet items: added, moved earlier, removed with a retired cluster", () => {
    const o = outlet("c-a", "harbor");
    expect(decodeClusterStreamRecord(streamRecord("INSERT", { new: o }))).toMatchObject({
      type: "outlet_added",
      outlet: o,
    });
    const earlier = outlet("c-a", "harbor", { carried_at: "2026-11-30T13:00:00.000Z" });
    expect(decodeClusterStreamRecord(streamRecord("MODIFY", { old: o, new: earlier })).type).toBe(
      "outlet_updated",
    );
    expect(decodeClusterStreamRecord(streamRecord("REMOVE", { old: o }))).toMatchObject({
      type: "outlet_removed",
      source_id: "harbor",
    });
  });

  it("passes items of unknown kinds through as 'unknown', for consumers to ignore", () => {
    const e = decodeClusterStreamRecord(
      streamRecord("INSERT", { new: { cluster_id: "c-a", item: "note#1" } }),
    );
    expect(e).toEqual(expect.objectContaining({ type: "unknown", item: "note#1" }));
  });

  it("reads the cluster records of versions 2 and 3, which version 4 left unchanged, keeping their version", () => {
    for (const record_version of [2, 3] as const) {
      const e = decodeClusterStreamRecord(
        streamRecord("INSERT", { new: summary("c-a", { record_version }) }),
      );
      expect(e).toMatchObject({ type: "story_created", story: { record_version } });
    }
  });

  it("refuses a record of another version, or a malformed one, naming the record and the field", () => {
    const v1 = { ...summary("c-a"), record_version: 1 };
    expect(() => decodeClusterStreamRecord(streamRecord("INSERT", { new: v1 }))).toThrow(
      /record_version 1, this decoder reads 2, 3, 4/,
    );
    const bad = { ...summary("c-a"), first_published_at: "2026-11-30T14:05:00Z" };
    expect(() => decodeClusterStreamRecord(streamRecord("INSERT", { new: bad }))).toThrow(StreamRecordError);
    expect(() => decodeClusterStreamRecord(streamRecord("INSERT", { new: bad }))).toThrow(
      /first_published_at/,
    );
    expect(() => decodeClusterStreamRecord({ eventName: "INSERT", dynamodb: {} })).toThrow(/no cluster_id/);
  });

  it("is a zod schema of a whole stream record whose output is the event", () => {
    const r = streamRecord("INSERT", { new: summary("c-a1") });
    expect(clusterStreamRecordSchema.parse(r)).toEqual(decodeClusterStreamRecord(r));
    const v1 = streamRecord("INSERT", { new: { ...summary("c-a1"), record_version: 1 } });
    const out = clusterStreamRecordSchema.safeParse(v1);
    expect(out.success).toBe(false);
    expect(out.error?.issues[0]?.message).toMatch(/record_version 1/);
  });
});
