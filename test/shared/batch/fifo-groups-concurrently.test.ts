import type { SQSEvent, SQSRecord } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { messageGroups, processFifoGroupsConcurrently } from "../../../shared/batch/fifo-groups-concurrently";

function record(id: string, group?: string): SQSRecord {
  return {
    messageId: id,
    receiptHandle: `rh-${id}`,
    body: JSON.stringify({ id }),
    attributes: {
      ApproximateReceiveCount: "1",
      SentTimestamp: "0",
      SenderId: "test",
      ApproximateFirstReceiveTimestamp: "0",
      ...(group ? { MessageGroupId: group, SequenceNumber: "1", MessageDeduplicationId: id } : {}),
    },
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:fetch.fifo",
    awsRegion: "us-east-1",
  };
}
const batch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("messageGroups", () => {
  it("keeps each group's records in batch order, groups in order of first appearance", () => {
    const groups = messageGroups([
      record("a1", "a"),
      record("b1", "b"),
      record("a2", "a"),
      record("x"),
      record("b2", "b"),
    ]);
    expect(groups.map((g) => g.map((r) => r.messageId))).toEqual([["a1", "a2"], ["b1", "b2"], ["x"]]);
  });
});

describe("processFifoGroupsConcurrently", () => {
  it("works groups at once and each group's records one after another, in order", async () => {
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const handler = async (r: SQSRecord) => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${r.messageId}`);
      await sleep(60);
      log.push(`end ${r.messageId}`);
      running--;
    };
    const t0 = performance.now();
    const out = await processFifoGroupsConcurrently(
      batch(record("a1", "a"), record("b1", "b"), record("a2", "a"), record("c1", "c"), record("b2", "b")),
      handler,
      { maxConcurrentGroups: 10 },
    );
    const ms = performance.now() - t0;
    expect(out.batchItemFailures).toEqual([]);
    // Two records deep: ~120 ms, not the ~300 ms of five one after another.
    expect(ms).toBeLessThan(250);
    expect(most).toBe(3);
    // Within a group, a record starts only after the one before it ended.
    for (const [first, second] of [
      ["a1", "a2"],
      ["b1", "b2"],
    ])
      expect(log.indexOf(`end ${first}`)).toBeLessThan(log.indexOf(`start ${second}`));
  });

  it("fails the rest of a failed group only, reported in the batch's order", async () => {
    const handled: string[] = [];
    const handler = async (r: SQSRecord) => {
      await sleep(5);
      if (r.messageId === "a2") throw new Error("host answered 503");
      handled.push(r.messageId);
    };
    const out = await processFifoGroupsConcurrently(
      batch(
        record("a1", "a"),
        record("b1", "b"),
        record("a2", "a"),
        record("a3", "a"),
        record("b2", "b"),
        record("a4", "a"),
      ),
      handler,
      { maxConcurrentGroups: 10 },
    );
    expect(out.batchItemFailures).toEqual([
      { itemIdentifier: "a2" },
      { itemIdentifier: "a3" },
      { itemIdentifier: "a4" },
    ]);
    expect(handled.sort()).toEqual(["a1", "b1", "b2"]); // a3 and a4 were never started
  });

  it("keeps to the bound on groups in flight", async () => {
    let running = 0;
    let most = 0;
    const handler = async () => {
      running++;
      most = Math.max(most, running);
      await sleep(10);
      running--;
    };
    const records = Array.from({ length: 10 }, (_, i) => record(`m${i}`, `g${i % 5}`));
    const out = await processFifoGroupsConcurrently(batch(...records), handler, { maxConcurrentGroups: 2 });
    expect(out.batchItemFailures).toEqual([]);
    expect(most).toBe(2);
  });

  it("answers an empty batch and a batch whose every record fails without throwing", async () => {
    expect(await processFifoGroupsConcurrently(batch(), async () => {}, { maxConcurrentGroups: 4 })).toEqual({
      batchItemFailures: [],
    });
    const out = await processFifoGroupsConcurrently(
      batch(record("a1", "a"), record("b1", "b")),
      async () => {
        throw new Error("down");
      },
      { maxConcurrentGroups: 4 },
    );
    expect(out.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(["a1", "b1"]);
  });
});
