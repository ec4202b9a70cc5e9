/**
 * The consumer kit against a real local run: a three-phase crawl that founds, grows and merges
 * stories (a merge chain A→B→C included), read from the Clusters table's stream. Every record
 * decodes; the materialised view, fed the events in any order, equals the table's live clusters; and
 * Powertools' batch processor with the stream-record schema reports no failures.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { parser } from "@aws-lambda-powertools/batch/parser";
import type { DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import {
  type ClusterStreamEvent,
  clusterStreamRecordSchema,
  decodeClusterStreamRecord,
} from "../../../shared/consumer/decode-stream-record";
import { StoryView } from "../../../shared/consumer/story-view";
import { type ClusterRecord, clusterRecordSchema } from "../../../shared/records";
import { articleIdFor } from "../../../shared/url/canonical-url";
import { type MergeChainSite, startMergeChainSite } from "../../support/merge-chain-site";
import { installRecordsPackage } from "../../support/records-package";
import { uniquePrefix } from "../../support/unique-prefix";

describe("the Clusters stream of a real local run, through the consumer kit", () => {
  let site: MergeChainSite;
  let runtime: LocalRuntime;
  const records: DynamoDBRecord[] = [];
  let table: ClusterRecord[] = [];

  beforeAll(async () => {
    site = await startMergeChainSite();
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("stream"),
      settings: { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true", STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
    });
    const subscription = await runtime.subscribeClusters(async (event) => {
      records.push(...event.Records);
    });
    for (const phase of [1, 2, 3] as const) {
      site.publish(phase);
      await runtime.discover({ sources: site.sources, run_id: `run-${phase}` });
      await runtime.drain();
    }
    await subscription.flush();
    await subscription.stop();
    table = (await runtime.items("clusters")).map((i) => clusterRecordSchema.parse(i));
  }, 240_000);

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
  });

  /** The table's live stories, read plainly: live summaries and the items under their ids. */
  function liveStories() {
    const live = table.filter((r) => r.record_type === "summary" && !r.merged_into);
    const by = <T extends ClusterRecord>(type: T["record_type"], id: string, key: (r: T) => string) =>
      (table.filter((r) => r.record_type === type && r.cluster_id === id) as T[]).sort((x, y) =>
        key(x) < key(y) ? -1 : 1,
      );
    return live
      .sort((x, y) => (x.cluster_id < y.cluster_id ? -1 : 1))
      .map((summary) => ({
        summary,
        members: by<Extract<ClusterRecord, { record_type: "member" }>>(
          "member",
          summary.cluster_id,
          (m) => m.article_id,
        ),
        outlets: by<Extract<ClusterRecord, { record_type: "outlet" }>>(
          "outlet",
          summary.cluster_id,
          (o) => o.source_id,
        ),
      }));
  }

  it("decodes every record, and the run made the chain A→B→C with moves and retired outlets", () => {
    const events = records.map(decodeClusterStreamRecord);
    const count = (type: ClusterStreamEvent["type"]) => events.filter((e) => e.type === type).length;
    const id = (role: keyof MergeChainSite["urls"]) => `c-${articleIdFor(site.urls[role])}`;
    const merges = events.flatMap((e) => (e.type === "story_merged" ? [[e.cluster_id, e.into]] : []));
    // (The wire copies, clustered concurrently, may found stories of their own and merge too.)
    expect(merges.filter(([from]) => [id("a"), id("b"), id("c")].includes(from!))).toEqual([
      [id("a"), id("b")],
      [id("b"), id("c")],
    ]);
    expect(count("member_moved")).toBe(count("member_removed"));
    expect(count("member_moved")).toBeGreaterThanOrEqual(3);
    expect(count("outlet_removed")).toBeGreaterThanOrEqual(3);
    // The retired stories hold no outlet item any more: naive outlet counting is right.
    expect(table.filter((r) => r.record_type === "outlet" && r.cluster_id === id("a"))).toEqual([]);
    const view = new StoryView();
    for (const e of events) view.apply(e);
    expect(view.resolve(id("a"))).toBe(id("c"));
    const chain = view.story(id("a"));
    expect(chain?.members.map((m) => m.url).sort()).toEqual(
      [site.urls.a, site.urls.b, site.urls.c, site.urls.ab, site.urls.bc].sort(),
    );
    expect(chain?.summary).toMatchObject({ article_count: 5, outlet_count: 4 });
  });

  it("materialises the table's live clusters from the events in any order", () => {
    const expected = liveStories();
    expect(expected.length).toBe(2);
    const events = records.map(decodeClusterStreamRecord);
    fc.assert(
      fc.property(fc.shuffledSubarray(events, { minLength: events.length }), (order) => {
        const view = new StoryView();
        for (const e of order) view.apply(e);
        expect(view.stories()).toEqual(expected);
      }),
      { numRuns: 50, seed: 11 },
    );
    expect(StoryView.fromItems(table).stories()).toEqual(expected);
  });

  it("works with Powertools' batch processor: the schema decodes every record, none fails", async () => {
    const seen: ClusterStreamEvent[] = [];
    const processor = new BatchProcessor(EventType.DynamoDBStreams, {
      parser,
      schema: clusterStreamRecordSchema,
    });
    const event: DynamoDBStreamEvent = { Records: records };
    const out = await processPartialResponse(
      event,
      async (e: ClusterStreamEvent) => {
        seen.push(e);
      },
      processor,
    );
    expect(out.batchItemFailures).toEqual([]);
    expect(seen).toEqual(records.map(decodeClusterStreamRecord));
    // The wiring the issue tried (the record schema on both images, unmarshalled) fails every record
    // that lacks an image: INSERTs (no OldImage) and REMOVEs (no NewImage).
    const naive = new BatchProcessor(EventType.DynamoDBStreams, {
      parser,
      innerSchema: clusterRecordSchema,
      transformer: "unmarshall",
    });
    const failed = await processPartialResponse(event, async () => {}, naive, {
      throwOnFullBatchFailure: false,
    });
    const missingImage = records.filter((r) => r.eventName !== "MODIFY").length;
    expect(failed.batchItemFailures.length).toBe(missingImage);
  });

  it("decodes this run's records in a plain node script with the packed @storytrail/records", async () => {
    const pkg = await installRecordsPackage();
    writeFileSync(join(pkg.dir, "records.json"), JSON.stringify(records));
    const out = await pkg.node(
      "replay.mjs",
      `import { readFileSync } from "node:fs";
import { decodeClusterStreamRecord, StoryView } from "@storytrail/records";
const view = new StoryView();
for (const r of JSON.parse(readFileSync("records.json", "utf8")).reverse()) view.apply(decodeClusterStreamRecord(r));
console.log(JSON.stringify(view.stories()));`,
    );
    expect(JSON.parse(out)).toEqual(liveStories());
  }, 120_000);
});
