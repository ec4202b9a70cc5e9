/** Raw samples round-trip through S3; the fetch function's client is made on the first sample only. */
import { CreateBucketCommand, GetObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, inject, it } from "vitest";
import { RawSamplesBucket } from "../../../shared/aws/raw-samples";
import { loadS3Client } from "../../../shared/aws/s3-client";
import { gzipRawHtml } from "../../../shared/crawl/raw-sample";
import { uniquePrefix } from "../../support/unique-prefix";

describe("RawSamplesBucket", () => {
  it("makes its S3 client on first use, once, and round-trips a sample", async () => {
    const endpoints = inject("endpoints");
    const bucket = `${uniquePrefix("raw").toLowerCase()}samples`;
    let made = 0;
    const samples = new RawSamplesBucket(() => {
      made++;
      return loadS3Client(endpoints);
    }, bucket);
    expect(made).toBe(0);
    const s3 = await loadS3Client(endpoints);
    try {
      await s3.send(new CreateBucketCommand({ Bucket: bucket }));
      const sample = {
        article_id: "a1",
        url: "https://example.com/ä?x=1",
        html: "<html><body>é</body></html>",
        collected_at: "2026-12-01T00:00:00.000Z",
        content_type: "text/html",
      };
      const [k1, k2] = await Promise.all([samples.put(sample), samples.put({ ...sample, article_id: "a2" })]);
      expect(made).toBe(1);
      const keys: string[] = [];
      for await (const k of samples.keys()) keys.push(k);
      expect(keys.sort()).toEqual([k1, k2].sort());
      expect(await samples.get(k1)).toEqual({
        key: k1,
        url: sample.url,
        collected_at: sample.collected_at,
        html: sample.html,
      });
      // HTML compressed elsewhere (an import's worker) is stored as the very bytes of its text's sample.
      const k3 = await samples.put({ ...sample, article_id: "a3", html: { gzip: gzipRawHtml(sample.html) } });
      const body = async (Key: string) =>
        Buffer.from(
          (await (
            await s3.send(new GetObjectCommand({ Bucket: bucket, Key }))
          ).Body?.transformToByteArray()) ?? [],
        );
      expect((await body(k3)).equals(await body(k1))).toBe(true);
      expect((await samples.get(k3)).html).toBe(sample.html);
    } finally {
      s3.destroy();
    }
  });
});
