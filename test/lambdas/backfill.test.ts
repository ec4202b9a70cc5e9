/**
 * The backfill λ run locally over a WARC file streamed from the local S3 emulator, as one Distributed
 * Map item: counts that add up, articles in the table and clusters from the dedup queue; and the state
 * machine's resume loop (stop at a checkpoint when time runs short, invoke again with the output) ending
 * with the same counts and the same stories.
 */
import { CreateBucketCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../infra/local/runtime";
import { type BackfillResult, backfillItemSchema } from "../../shared/backfill/backfill-item";
import { skippedTotal } from "../../shared/backfill/import-summary";
import { syntheticPage } from "../support/synthetic-page";
import { uniquePrefix } from "../support/unique-prefix";
import { type WarcRecordSpec, writeWarc } from "../support/warc-files";

const DATE = "2026-11-30T12:00:00Z";
const SPECS: WarcRecordSpec[] = [
  { type: "warcinfo" },
  { type: "request", url: "https://one.example/a", date: DATE },
  { type: "response", url: "https://one.example/a", date: DATE, body: syntheticPage(1) },
  // The same story carried by a second outlet: one cluster of two.
  { type: "response", url: "https://two.example/a-copy", date: DATE, body: syntheticPage(1) },
  { type: "response", url: "https://one.example/b", date: DATE, body: syntheticPage(2) },
  { type: "metadata", url: "https://one.example/b", date: DATE },
  { type: "revisit", url: "https://one.example/a", date: DATE },
  {
    type: "response",
    url: "https://one.example/logo.png",
    date: DATE,
    body: new Uint8Array([137, 80, 78, 71]),
    contentType: "image/png",
  },
  { type: "response", url: "https://one.example/thin", date: DATE, body: "<html><p>Too short.</p></html>" },
  { type: "response", url: "https://one.example/c", date: DATE, body: syntheticPage(3) },
];
const EXPECTED = {
  records: 10,
  articles: 4,
  skipped: { warcinfo: 1, request: 1, metadata: 1, revisit: 1, not_html: 1, thin_content: 1 },
  errors: 0,
};

let runtime: LocalRuntime;
let bucket: string;

async function start(label: string): Promise<LocalRuntime> {
  return LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix(label) });
}

async function stories(rt: LocalRuntime): Promise<string[][]> {
  const members = (await rt.items("clusters")).filter((i) => i.record_type === "member");
  const by = new Map<string, string[]>();
  for (const m of members)
    by.set(String(m.cluster_id), [...(by.get(String(m.cluster_id)) ?? []), String(m.url)]);
  return [...by.values()].map((u) => u.sort()).sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

beforeAll(async () => {
  runtime = await start("backfill-fn");
  bucket = `${uniquePrefix("warcs")}warcs`;
  await runtime.clients.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await runtime.clients.s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: "crawl-data/CC-NEWS/2026/11/test-00000.warc.gz",
      Body: await writeWarc(SPECS, "record-gzip"),
    }),
  );
});

afterAll(async () => {
  await runtime?.close();
});

describe("backfill λ (local)", () => {
  it("imports a WARC streamed from S3: counts add up, articles stored, the copies clustered", async () => {
    const out = (await runtime.invoke("backfill", {
      bucket,
      key: "crawl-data/CC-NEWS/2026/11/test-00000.warc.gz",
    })) as BackfillResult;
    expect(out).toMatchObject({ done: true, key: "crawl-data/CC-NEWS/2026/11/test-00000.warc.gz" });
    const s = out.checkpoint.summary;
    expect(s).toMatchObject(EXPECTED);
    expect(s.records).toBe(s.articles + skippedTotal(s) + s.errors);
    await runtime.drain();
    const articles = await runtime.items("articles");
    expect(articles.map((a) => a.collected_at)).toEqual(Array(4).fill("2026-11-30T12:00:00.000Z"));
    expect(await stories(runtime)).toEqual([
      ["https://one.example/a", "https://two.example/a-copy"],
      ["https://one.example/b"],
      ["https://one.example/c"],
    ]);
  });

  it("stops at a checkpoint when time runs short; invoked again with its output, ends the same", async () => {
    const fresh = await start("backfill-resume");
    try {
      await fresh.clients.s3.send(new CreateBucketCommand({ Bucket: `${bucket}-r` }));
      await fresh.clients.s3.send(
        new PutObjectCommand({ Bucket: `${bucket}-r`, Key: "w.warc", Body: await writeWarc(SPECS, "plain") }),
      );
      // No time left: each invocation reads one record at least, then stops (what the state machine's
      // loop meets when a file outlasts 15 minutes).
      const noTime = new AbortController();
      noTime.abort();
      let input: unknown = { bucket: `${bucket}-r`, key: "w.warc" };
      let out: BackfillResult;
      let invocations = 0;
      do {
        out = (await fresh.invoke("backfill", input, { signal: noTime.signal })) as BackfillResult;
        // The output is the next input as Step Functions passes it: plain JSON, and a valid item.
        input = backfillItemSchema.parse(JSON.parse(JSON.stringify(out)));
        invocations++;
      } while (!out.done && invocations < 50);
      expect(invocations).toBe(SPECS.length);
      expect(out.checkpoint.summary).toMatchObject(EXPECTED);
      await fresh.drain();
      expect(await stories(fresh)).toEqual(await stories(runtime));
    } finally {
      await fresh.close();
    }
  });

  it("fails a malformed item (the Map counts it against its tolerated failures)", async () => {
    await expect(runtime.invoke("backfill", { key: "x.warc" })).rejects.toThrow(/malformed backfill item/);
  });
});
