/** Raw HTML samples in S3, gzip-compressed, so extraction can be re-run when templates change. */
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { GetObjectCommand, PutObjectCommand, paginateListObjectsV2, type S3Client } from "@aws-sdk/client-s3";
import type { RawSample, RawSampleStore } from "../crawl/ports";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export const RAW_PREFIX = "raw/";

export class RawSamplesBucket implements RawSampleStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(s: {
    article_id: string;
    url: string;
    html: string;
    collected_at: string;
    content_type: string;
  }): Promise<string> {
    const key = `${RAW_PREFIX}${s.article_id}.html.gz`;
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: await gzipAsync(Buffer.from(s.html, "utf8")),
        ContentType: "text/html; charset=utf-8",
        ContentEncoding: "gzip",
        Metadata: { url: encodeURIComponent(s.url), "collected-at": s.collected_at },
      }),
    );
    return key;
  }

  async get(key: string): Promise<RawSample> {
    const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    const bytes = await out.Body?.transformToByteArray();
    if (!bytes) throw new Error(`raw sample ${key} has no body`);
    const html = (await gunzipAsync(bytes)).toString("utf8");
    return {
      key,
      url: decodeURIComponent(out.Metadata?.url ?? ""),
      collected_at: out.Metadata?.["collected-at"] ?? "",
      html,
    };
  }

  async *keys(prefix = RAW_PREFIX): AsyncGenerator<string> {
    for await (const page of paginateListObjectsV2(
      { client: this.s3 },
      { Bucket: this.bucket, Prefix: prefix },
    )) {
      for (const o of page.Contents ?? []) if (o.Key) yield o.Key;
    }
  }
}
