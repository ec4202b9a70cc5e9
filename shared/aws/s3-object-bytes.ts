/**
 * An S3 object's bytes from an offset on, read in successive ranged GETs and streamed: never the whole
 * object in memory, and no single connection held open for the many minutes a 1 GB WARC file takes to
 * import (each range is read through within seconds of opening it).
 */
import type { GetObjectCommandOutput, S3Client } from "@aws-sdk/client-s3";

/**
 * Bytes per ranged GET. 8 MiB is ~150 CC-NEWS records (a few seconds of extraction); one GET per range
 * costs $0.0004 per 1,000, so a 1 GB file's ~120 GETs cost $0.00005.
 */
export const RANGE_BYTES = 8 * 1024 * 1024;

export interface S3ObjectRef {
  readonly bucket: string;
  readonly key: string;
}

/** `open(offset)`: the object's bytes from `offset` to its end. */
export function s3ObjectBytes(
  s3: S3Client,
  ref: S3ObjectRef,
  rangeBytes = RANGE_BYTES,
): (offset: number) => AsyncIterable<Uint8Array> {
  return (offset) => readFrom(s3, ref, offset, rangeBytes);
}

async function* readFrom(
  s3: S3Client,
  ref: S3ObjectRef,
  offset: number,
  rangeBytes: number,
): AsyncGenerator<Uint8Array> {
  const { GetObjectCommand } = await import("@aws-sdk/client-s3");
  let pos = offset;
  let size = Number.POSITIVE_INFINITY;
  while (pos < size) {
    let res: GetObjectCommandOutput;
    try {
      res = await s3.send(
        new GetObjectCommand({
          Bucket: ref.bucket,
          Key: ref.key,
          Range: `bytes=${pos}-${pos + rangeBytes - 1}`,
        }),
      );
    } catch (err) {
      // A range starting at or past the end (a resumed read of a file already read to its end).
      if ((err as { name?: string }).name === "InvalidRange") return;
      throw err;
    }
    // "bytes 0-8388607/1034567890": the total tells when to stop without a GET past the end.
    const total = /\/(\d+)$/.exec(res.ContentRange ?? "")?.[1];
    if (total) size = Number(total);
    let got = 0;
    for await (const chunk of res.Body as AsyncIterable<Uint8Array>) {
      got += chunk.byteLength;
      yield chunk;
    }
    if (got === 0) return;
    pos += got;
    if (!total && got < rangeBytes) return;
  }
}
