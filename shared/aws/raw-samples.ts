/** Raw HTML samples in S3, gzip-compressed, so extraction can be re-run when templates change. */
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import type { S3Client } from "@aws-sdk/client-s3";
import { RAW_SAMPLES_PREFIX } from "../config/resource-names";
import type { RawSample, RawSampleStore } from "../crawl/ports";

/**
 * The S3 SDK loads on first use: the fetch function samples a fraction of its pages, so most of its
 * cold starts never need it (see lambdas/fetch.ts).
 */
const s3Sdk = () => import("@aws-sdk/client-s3");

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export class RawSamplesBucket implements RawSampleStore {
  private client: Promise<S3Client> | undefined;

  /** `s3`: a client, or what makes one when the first sample is written or read. */
  constructor(
    private readonly s3: S3Client | (() => Promise<S3Client>),
    private readonly bucket: string,
  ) {}

  private s3Client(): Promise<S3Client> {
    const s3 = this.s3;
    this.client ??= typeof s3 === "function" ? s3() : Promise.resolve(s3);
    // A failed load is tried again next time, not remembered.
    return this.client.catch((err: unknown) => {
      this.client = undefined;
      throw err;
    });
  }

  async put(s: {
    article_id: string;
    url: string;
    html: string | { readonly gzip: Uint8Array };
    collected_at: string;
    content_type: string;
  }): Promise<string> {
    const key = `${RAW_SAMPLES_PREFIX}${s.article_id}.html.gz`;
    await this.putObject({
      Key: key,
      // The same bytes as gzipRawHtml's (zlib's default level is 6), off the event loop.
      Body: typeof s.html === "string" ? await gzipAsync(Buffer.from(s.html, "utf8")) : s.html.gzip,
      ContentType: "text/html; charset=utf-8",
      ContentEncoding: "gzip",
      Metadata: { url: encodeURIComponent(s.url), "collected-at": s.collected_at },
    });
    return key;
  }

  /** Puts one object in the samples' bucket: revisions keep their earlier bodies beside the samples
   * (revisions-bucket.ts), with the same lazily loaded client. */
  async putObject(o: {
    Key: string;
    Body: Uint8Array | string;
    ContentType: string;
    ContentEncoding?: string;
    Metadata?: Record<string, string>;
  }): Promise<void> {
    const [{ PutObjectCommand }, s3] = await Promise.all([s3Sdk(), this.s3Client()]);
    await s3.send(new PutObjectCommand({ Bucket: this.bucket, ...o }));
  }

  async get(key: string): Promise<RawSample> {
    const [{ GetObjectCommand }, s3] = await Promise.all([s3Sdk(), this.s3Client()]);
    const out = await s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
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

  async *keys(prefix = RAW_SAMPLES_PREFIX): AsyncGenerator<string> {
    const [{ paginateListObjectsV2 }, s3] = await Promise.all([s3Sdk(), this.s3Client()]);
    for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: this.bucket, Prefix: prefix })) {
      for (const o of page.Contents ?? []) if (o.Key) yield o.Key;
    }
  }
}
