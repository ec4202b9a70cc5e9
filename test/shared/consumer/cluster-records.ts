/** Cluster records and the stream records that carry them, for the consumer-kit tests. */
import { marshall } from "@aws-sdk/util-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";
import type { ClusterMember, ClusterOutlet, ClusterRecord, ClusterSummary } from "../../../shared/records";
import { RECORD_VERSION } from "../../../shared/records";

export function summary(cluster_id: string, over: Partial<ClusterSummary> = {}): ClusterSummary {
  return {
    record_version: RECORD_VERSION,
    record_type: "summary",
    cluster_id,
    item: "summary",
    canonical_article_id: "a1",
    canonical_url: "https://harbor.example/world/port-strike-ends",
    headline: "Dock workers end nine-day port strike after wage deal",
    publication: "Harbor Times",
    source_id: "harbor",
    first_published_at: "2026-11-30T14:05:00.000Z",
    last_published_at: "2026-11-30T14:05:00.000Z",
    article_count: 1,
    outlet_count: 1,
    seconds_to_10_outlets: null,
    revision: 1,
    updated_at: "2026-11-30T14:06:02.118Z",
    merged_into: null,
    ...over,
  };
}

export function member(
  cluster_id: string,
  article_id: string,
  over: Partial<ClusterMember> = {},
): ClusterMember {
  return {
    record_version: RECORD_VERSION,
    record_type: "member",
    cluster_id,
    item: `member#${article_id}`,
    article_id,
    url: `https://harbor.example/${article_id}`,
    publication: "Harbor Times",
    source_id: "harbor",
    published_at: "2026-11-30T14:05:00.000Z",
    collected_at: "2026-11-30T14:06:01.907Z",
    similarity: 1,
    moved_from: null,
    latest_revision: null,
    ...over,
  };
}

export function outlet(
  cluster_id: string,
  source_id: string,
  over: Partial<ClusterOutlet> = {},
): ClusterOutlet {
  return {
    record_version: RECORD_VERSION,
    record_type: "outlet",
    cluster_id,
    item: `outlet#${source_id}`,
    source_id,
    publication: `${source_id} news`,
    carried_at: "2026-11-30T14:05:00.000Z",
    ...over,
  };
}

let sequence = 100;

/** A stream record as Lambda delivers it (DynamoDB JSON images; INSERT without OldImage, REMOVE
 * without NewImage). */
export function streamRecord(
  eventName: "INSERT" | "MODIFY" | "REMOVE",
  images: { old?: ClusterRecord | Record<string, unknown>; new?: ClusterRecord | Record<string, unknown> },
): DynamoDBRecord {
  const any = (images.new ?? images.old) as { cluster_id: string; item: string };
  sequence++;
  return {
    eventID: `e${sequence}`,
    eventName,
    eventSource: "aws:dynamodb",
    eventVersion: "1.1",
    awsRegion: "us-east-1",
    dynamodb: {
      ApproximateCreationDateTime: 1_796_047_562,
      Keys: marshall({ cluster_id: any.cluster_id, item: any.item }) as never,
      ...(images.new ? { NewImage: marshall(images.new, { removeUndefinedValues: true }) as never } : {}),
      ...(images.old ? { OldImage: marshall(images.old, { removeUndefinedValues: true }) as never } : {}),
      SequenceNumber: String(sequence).padStart(21, "0"),
      SizeBytes: 300,
      StreamViewType: "NEW_AND_OLD_IMAGES",
    },
  };
}

/** The REMOVE that DynamoDB's Time to Live makes when `old`'s expires_at passes: the same record as a
 * delete's, plus the service as its userIdentity (as AWS documents and a TTL deletion delivers it). */
export function ttlExpiry(old: ClusterRecord): DynamoDBRecord {
  return {
    ...streamRecord("REMOVE", { old: { ...old, expires_at: 1_796_100_000 } }),
    userIdentity: { type: "Service", principalId: "dynamodb.amazonaws.com" },
  };
}
