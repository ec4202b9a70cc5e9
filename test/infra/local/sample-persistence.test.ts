/**
 * A local run's raw samples on disk: what a run wrote to the (in-memory) bucket is saved into the
 * folder with its metadata, as `storytrail reextract` reads it (sample-files.ts); a later run saves its
 * own objects beside the earlier ones, which stay, without loading them into the bucket first.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { sampleFiles } from "../../../infra/local/sample-files";
import { saveSamples } from "../../../infra/local/sample-persistence";
import { RawSamplesBucket } from "../../../shared/aws/raw-samples";
import { uniquePrefix } from "../../support/unique-prefix";

describe("saveSamples", () => {
  let runtime: LocalRuntime;
  const dir = mkdtempSync(join(tmpdir(), "storytrail-samples-"));

  beforeAll(async () => {
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix("samples") });
  }, 60_000);

  afterAll(async () => {
    await runtime?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("saves each run's objects with their metadata, and keeps the earlier runs' on disk", async () => {
    const { s3 } = runtime.clients;
    const bucket = runtime.resources.buckets.raw;
    const samples = new RawSamplesBucket(s3, bucket);
    const put = (key: string, html: string, url: string) =>
      samples.putObject({
        Key: key,
        Body: gzipSync(html),
        ContentType: "text/html",
        ContentEncoding: "gzip",
        Metadata: { url: encodeURIComponent(url), "collected-at": "2026-12-02T11:00:00.000Z" },
      });
    await put("raw/a.html.gz", "<p>first run</p>", "https://news.example/a");
    expect(await saveSamples(s3, bucket, dir)).toBe(1);
    // The next run's bucket starts empty (fauxqs keeps S3 in memory): it holds only what that run wrote.
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: "raw/a.html.gz" }));
    await put("raw/b.html.gz", "<p>second run</p>", "https://news.example/b");
    expect(await saveSamples(s3, bucket, dir)).toBe(1);

    const files = [];
    for await (const f of sampleFiles(dir)) files.push(f);
    expect(files.map((f) => [f.url, f.html]).sort()).toEqual([
      ["https://news.example/a", "<p>first run</p>"],
      ["https://news.example/b", "<p>second run</p>"],
    ]);
    const meta = JSON.parse(readFileSync(join(dir, "raw/b.html.gz.meta.json"), "utf8"));
    expect(meta).toMatchObject({
      contentType: "text/html",
      metadata: { url: encodeURIComponent("https://news.example/b") },
    });
  });
});
