/** The S3 client (fetch keeps raw samples). */
import { S3Client } from "@aws-sdk/client-s3";
import { announceClients, defaultRegion, type Endpoints, serviceConfig } from "./client-config";

export function makeS3Client(endpoints: Endpoints = {}, region = defaultRegion()): S3Client {
  const s3 = new S3Client({ ...serviceConfig(endpoints.s3, region), forcePathStyle: Boolean(endpoints.s3) });
  announceClients({ s3 });
  return s3;
}
