/**
 * fauxqs keeps S3 in memory only, so a local run copies the raw-sample bucket to the data directory
 * when it ends and back when it starts: tomorrow's run can re-extract today's pages.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { GetObjectCommand, PutObjectCommand, paginateListObjectsV2, type S3Client } from "@aws-sdk/client-s3";

function* walk(dir: string): Generator<string> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile() && !e.name.endsWith(".meta.json")) yield p;
  }
}

export async function restoreSamples(s3: S3Client, bucket: string, dir: string): Promise<number> {
  let n = 0;
  for (const file of walk(dir)) {
    const key = relative(dir, file).split("\\").join("/");
    let meta: { contentType?: string; contentEncoding?: string; metadata?: Record<string, string> } = {};
    try {
      meta = JSON.parse(readFileSync(`${file}.meta.json`, "utf8"));
    } catch {}
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: readFileSync(file),
        ContentType: meta.contentType,
        ContentEncoding: meta.contentEncoding,
        Metadata: meta.metadata,
      }),
    );
    n++;
  }
  return n;
}

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
      writeFileSync(
        `${file}.meta.json`,
        JSON.stringify({
          contentType: out.ContentType,
          contentEncoding: out.ContentEncoding,
          metadata: out.Metadata,
        }),
      );
      n++;
    }
  }
  return n;
}
