/** The archive's objects in an S3 bucket (adapter of the archive's `ObjectStore`): `s3://bucket/dataset/…`. */
import type { S3Client } from "@aws-sdk/client-s3";
import type { ObjectStore } from "../archive/ports";
import { chunks } from "./batch-write";

// Loaded on first use, as every SDK package a handler needs (test/infra/bundling.test.ts: cold starts).
const s3Sdk = () => import("@aws-sdk/client-s3");

const isMissing = (err: unknown): boolean => {
  const name = (err as { name?: string }).name;
  return name === "NoSuchKey" || name === "NotFound";
};

export class S3ObjectStore implements ObjectStore {
  readonly athena = true;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, parts: readonly Uint8Array[]): Promise<void> {
    // One PUT per file: the writer caps a file at 64 MB (shared/archive/day-archive.ts), under S3's 5 GB.
    const body = Buffer.concat(parts);
    const { PutObjectCommand } = await s3Sdk();
    await this.s3.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: body.length }),
    );
  }

  async get(key: string): Promise<Uint8Array | null> {
    const { GetObjectCommand } = await s3Sdk();
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const { ListObjectsV2Command } = await s3Sdk();
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const out = await this.s3.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of out.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async delete(keys: readonly string[]): Promise<void> {
    const { DeleteObjectsCommand } = await s3Sdk();
    for (const batch of chunks(keys, 1000)) {
      const out = await this.s3.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = out.Errors?.[0];
      if (failed) throw new Error(`${failed.Key}: ${failed.Code} ${failed.Message}`);
    }
  }

  uri(key: string): string {
    return `s3://${this.bucket}/${key}`;
  }
}
