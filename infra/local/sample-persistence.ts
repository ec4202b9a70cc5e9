/**
 * fauxqs keeps S3 in memory only, so a local run copies what it wrote to the raw-sample bucket (raw
 * HTML samples, revisions' earlier bodies) into the data directory when it ends: `storytrail reextract`
 * reads them there. Nothing in a run reads the bucket back (fetch and the revisions only write to it),
 * so a run starts with the bucket empty: restoring the folder's samples at every start, and writing
 * them all out again at the end, made a run's time grow with the days (bench --only days, day 15 of the
 * month: 900 objects, 1.8 s restored and 5.5 s saved, against 13 s for the whole day on day 2).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { GetObjectCommand, paginateListObjectsV2, type S3Client } from "@aws-sdk/client-s3";

/** Writes the bucket's objects (this run's) into `dir`, key = path, each with its `<file>.meta.json`
 * (sample-files.ts reads them); how many it wrote. */
export async function saveSamples(s3: S3Client, bucket: string, dir: string): Promise<number> {
  let n = 0;
  for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: bucket })) {
    for (const o of page.Contents ?? []) {
      if (!o.Key) continue;
      const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: o.Key }));
      const bytes = await out.Body?.transformToByteArray();
      if (!bytes) continue;
      const file = join(dir, o.Key);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, bytes);
      const meta = {
        contentType: out.ContentType,
        contentEncoding: out.ContentEncoding,
        metadata: out.Metadata,
      };
      writeFileSync(`${file}.meta.json`, JSON.stringify(meta));
      n++;
    }
  }
  return n;
}
