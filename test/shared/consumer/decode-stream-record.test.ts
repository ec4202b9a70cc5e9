import { marshall } from "@aws-sdk/util-dynamodb";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ClusterStreamRecord,
  clusterStreamRecordSchema,
  decodeClusterStreamRecord,
} from "../../../shared/consumer/decode-stream-record";
import { StreamRecordError } from "../../../shared/consumer/stream-record-error";
import { member, outlet, streamRecord, summary, ttlExpiry } from "./cluster-records";

/** The StreamRecordError `input` throws (the test fails if it throws anything else, or nothing). */
function refusal(input: unknown): StreamRecordError {
  try {
    decodeClusterStreamRecord(input as ClusterStreamRecord);
  } catch (err) {
    expect(err).toBeInstanceOf(StreamRecordError);
    return err as StreamRecordError;
  }
  throw new Error(`decoded ${JSON.stringify(input)}`);
}

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

  it("decodes a REMOVE made by DynamoDB's TTL as an expiry of the summary, member or outlet, never a removal", () => {
    const m = member("c-a", "a7");
    const expired = decodeClusterStreamRecord(ttlExpiry(m));
    expect(expired).toMatchObject({
      type: "member_expired",
      cluster_id: "c-a",
      article_id: "a7",
      previous: m,
    });
    expect(expired.sequence).toMatch(/^\d+$/);
    const o = outlet("c-a", "harbor");
    expect(decodeClusterStreamRecord(ttlExpiry(o))).toMatchObject({
      type: "outlet_expired",
      source_id: "harbor",
      previous: o,
    });
    // A retired summary expiring is not a merge, nor an operator's delete.
    const retired = summary("c-b", { merged_into: "c-a", revision: 3 });
    expect(decodeClusterStreamRecord(ttlExpiry(retired))).toMatchObject({
      type: "story_expired",
      cluster_id: "c-b",
      previous: retired,
    });
    // Keys only (no OldImage) still tells an expiry by its userIdentity.
    const keysOnly = ttlExpiry(m);
    delete keysOnly.dynamodb?.OldImage;
    expect(decodeClusterStreamRecord(keysOnly)).toMatchObject({ type: "member_expired", previous: null });
  });

  it("takes only DynamoDB's own identity for an expiry: another userIdentity or none is a removal", () => {
    const m = member("c-a", "a7");
    for (const userIdentity of [
      undefined,
      null,
      "dynamodb.amazonaws.com",
      { type: "Service", principalId: "lambda.amazonaws.com" },
      { type: "IAMUser", principalId: "dynamodb.amazonaws.com" },
    ])
      expect(
        decodeClusterStreamRecord({ ...ttlExpiry(m), userIdentity }).type,
        JSON.stringify(userIdentity),
      ).toBe("member_removed");
    // The Powertools schema keeps userIdentity through to the decoder.
    expect(clusterStreamRecordSchema.parse(ttlExpiry(m)).type).toBe("member_expired");
    expect(clusterStreamRecordSchema.parse(streamRecord("REMOVE", { old: m })).type).toBe("member_removed");
  });

  it("passes items of unknown kinds through as 'unknown', for consumers to ignore", () => {
    const e = decodeClusterStreamRecord(
      streamRecord("INSERT", { new: { cluster_id: "c-a", item: "note#1" } }),
    );
    expect(e).toEqual(expect.objectContaining({ type: "unknown", item: "note#1" }));
  });

  it("reads the cluster records of versions 2, 3 and 7, which later versions left unchanged, keeping their version", () => {
    for (const record_version of [2, 3, 7] as const) {
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
    expect(refusal(streamRecord("INSERT", { new: v1 }))).toMatchObject({
      code: "unknown_version",
      field: "dynamodb.NewImage.record_version",
    });
  });

  it("is a zod schema of a whole stream record whose output is the event", () => {
    const r = streamRecord("INSERT", { new: summary("c-a1") });
    expect(clusterStreamRecordSchema.parse(r)).toEqual(decodeClusterStreamRecord(r));
    const v1 = streamRecord("INSERT", { new: { ...summary("c-a1"), record_version: 1 } });
    const out = clusterStreamRecordSchema.safeParse(v1);
    expect(out.success).toBe(false);
    expect(out.error?.issues[0]?.message).toMatch(/record_version 1/);
    expect(out.error?.issues[0]).toMatchObject({
      params: { code: "unknown_version", field: "dynamodb.NewImage.record_version" },
    });
  });
});

describe("StreamRecordError", () => {
  it("is what every input that is not a stream record throws, with code not_a_record", () => {
    for (const input of [null, undefined, 0, "INSERT", true, [], [{}], {}, { eventName: "INSERT" }]) {
      const err = refusal(input);
      expect(err.code, JSON.stringify(input)).toBe("not_a_record");
    }
    expect(refusal(null).message).toBe("not a stream record: null");
    expect(refusal({ eventID: "e1", eventName: "INSERT", dynamodb: "x" })).toMatchObject({
      code: "not_a_record",
      field: "dynamodb",
      eventID: "e1",
    });
    expect(refusal({ eventName: "UPSERT", dynamodb: {} })).toMatchObject({
      field: "eventName",
      eventID: null,
    });
    expect(refusal({ eventName: "INSERT", dynamodb: { Keys: "c-a" } })).toMatchObject({
      code: "not_a_record",
      field: "dynamodb.Keys",
    });
  });

  it("says in words that record_version is missing, and tells it from an unknown version", () => {
    const { record_version: _, ...unversioned } = summary("c-a");
    const missing = refusal({ ...streamRecord("INSERT", { new: unversioned as never }), eventID: "e7" });
    expect(missing).toMatchObject({
      code: "missing_version",
      field: "dynamodb.NewImage.record_version",
      eventID: "e7",
    });
    expect(missing.message).toMatch(/NewImage: record_version is missing; this decoder reads 2, 3, 4/);
    expect(missing.message).not.toMatch(/undefined/);
    const future = refusal(streamRecord("INSERT", { new: { ...summary("c-a"), record_version: 99 } }));
    expect(future).toMatchObject({ code: "unknown_version", field: "dynamodb.NewImage.record_version" });
    expect(future.message).toMatch(/record_version 99, this decoder reads/);
    const text = refusal(
      streamRecord("INSERT", { new: { ...summary("c-a"), record_version: "4" } as never }),
    );
    expect(text.message).toMatch(/record_version "4"/);
  });

  it("names the field a schema or DynamoDB JSON problem is in, with code bad_field", () => {
    const badDate = refusal(
      streamRecord("INSERT", { new: { ...summary("c-a"), first_published_at: "yesterday" } }),
    );
    expect(badDate).toMatchObject({ code: "bad_field", field: "dynamodb.NewImage.first_published_at" });
    const record = streamRecord("MODIFY", { old: summary("c-a"), new: summary("c-a") });
    const wire = { ...record, dynamodb: { ...record.dynamodb, OldImage: { ...marshall(summary("c-a")) } } };
    wire.dynamodb.OldImage.article_count = { N: "many" } as never;
    expect(refusal(wire)).toMatchObject({ code: "bad_field", field: "dynamodb.OldImage.article_count" });
    const notMap = { ...record, dynamodb: { ...record.dynamodb, NewImage: [1, 2] as never } };
    expect(refusal(notMap)).toMatchObject({ code: "bad_field", field: "dynamodb.NewImage" });
  });

  it("says when the stream carries no new images, with code missing_image", () => {
    const keysOnly = streamRecord("INSERT", { new: summary("c-a") });
    delete keysOnly.dynamodb?.NewImage;
    expect(refusal(keysOnly)).toMatchObject({ code: "missing_image", field: "dynamodb.NewImage" });
  });

  it("keeps a __proto__ attribute an own property instead of setting the image's prototype", () => {
    const record = streamRecord("INSERT", { new: summary("c-a") });
    const raw = JSON.parse(
      JSON.stringify(record).replace(
        '"NewImage":{',
        '"NewImage":{"__proto__":{"M":{"record_version":{"N":"4"}}},',
      ),
    );
    expect(decodeClusterStreamRecord(raw).type).toBe("story_created");
    const { record_version: _, ...unversioned } = summary("c-a");
    const sneaky = JSON.parse(
      JSON.stringify(streamRecord("INSERT", { new: unversioned as never })).replace(
        '"NewImage":{',
        '"NewImage":{"__proto__":{"M":{"record_version":{"N":"4"}}},',
      ),
    );
    expect(refusal(sneaky).code).toBe("missing_version");
  });

  it("is the only thing any JSON input throws (property test)", () => {
    const codes = new Set([
      "not_a_record",
      "missing_image",
      "missing_version",
      "unknown_version",
      "bad_field",
    ]);
    const check = (input: unknown): void => {
      try {
        decodeClusterStreamRecord(input as ClusterStreamRecord);
      } catch (err) {
        if (!(err instanceof StreamRecordError)) throw err;
        if (!codes.has(err.code)) throw new Error(`undocumented code ${err.code}`);
      }
    };
    // Arbitrary JSON, and records shaped like stream records with arbitrary JSON in their parts.
    fc.assert(fc.property(fc.jsonValue(), check), { numRuns: 2_000 });
    const part = fc.oneof(fc.jsonValue(), fc.constant(marshall(summary("c-a"))));
    const shaped = fc.record(
      {
        eventID: fc.oneof(fc.string(), fc.jsonValue()),
        eventName: fc.oneof(fc.constantFrom("INSERT", "MODIFY", "REMOVE"), fc.jsonValue()),
        dynamodb: fc.record(
          {
            Keys: fc.oneof(part, fc.constant(marshall({ cluster_id: "c-a", item: "summary" }))),
            NewImage: part,
            OldImage: part,
            SequenceNumber: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(shaped, check), { numRuns: 2_000 });
    // Images of real records with one attribute replaced by arbitrary JSON.
    const mutated = fc
      .tuple(fc.constantFrom(...Object.keys(summary("c-a"))), fc.jsonValue(), fc.boolean())
      .map(([key, value, wire]) => {
        const image: Record<string, unknown> = { ...marshall(summary("c-a")) };
        image[key] = wire ? { S: value } : value;
        return {
          eventName: "INSERT",
          dynamodb: { Keys: marshall({ cluster_id: "c-a", item: "summary" }), NewImage: image },
        };
      });
    fc.assert(fc.property(mutated, check), { numRuns: 2_000 });
  });
});
