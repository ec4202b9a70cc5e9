import { CreateBucketCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeClients } from "../../../shared/aws/clients";
import { s3ObjectBytes } from "../../../shared/aws/s3-object-bytes";
import { uniquePrefix } from "../../support/unique-prefix";

const clients = makeClients(inject("endpoints"));
const bucket = `${uniquePrefix("ranges")}bytes`;
const data = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));

async function read(it: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of it) parts.push(c);
  return Buffer.concat(parts);
}

beforeAll(async () => {
  await clients.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await clients.s3.send(new PutObjectCommand({ Bucket: bucket, Key: "f", Body: data }));
});
afterAll(() => clients.s3.destroy());

describe("s3ObjectBytes", () => {
  it("reads an object in ranges from any offset to its end, and nothing from its end", async () => {
    const open = s3ObjectBytes(clients.s3 as S3Client, { bucket, key: "f" }, 3000);
    expect((await read(open(0))).equals(data)).toBe(true);
    expect((await read(open(4321))).equals(data.subarray(4321))).toBe(true);
    expect((await read(open(9000))).equals(data.subarray(9000))).toBe(true);
    expect((await read(open(10_000))).length).toBe(0);
  });

  it("fails on an object that is not there", async () => {
    const open = s3ObjectBytes(clients.s3 as S3Client, { bucket, key: "missing" }, 3000);
    await expect(read(open(0))).rejects.toThrow();
  });
});
