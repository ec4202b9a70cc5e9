/**
 * The S3 client, loaded when first needed: fetch keeps raw samples of a fraction of its pages, so
 * most of its cold starts never load the S3 SDK.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import { announceClients, defaultRegion, type Endpoints, s3Config } from "./client-config";

export async function loadS3Client(
  endpoints: Endpoints = {},
  region = defaultRegion(),
  /** For a bucket that may live in another region (the backfill's WARC source: commoncrawl is in us-east-1). */
  opts: { followRegionRedirects?: boolean } = {},
): Promise<S3Client> {
  const sdk = await import("@aws-sdk/client-s3");
  const s3 = new sdk.S3Client({ ...s3Config(endpoints, region), ...opts });
  announceClients({ s3 });
  return s3;
}
