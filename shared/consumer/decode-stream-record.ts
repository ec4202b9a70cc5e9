/**
 * One Clusters-table stream record (DynamoDB JSON, as Lambda, EventBridge Pipes or the Streams API
 * deliver it) → one typed event. An INSERT has no OldImage and a REMOVE no NewImage; a REMOVE is
 * decoded from its Keys when the stream carries no OldImage, and a REMOVE that DynamoDB's Time to Live
 * made (its userIdentity names the service: ttl-deletion.ts) is an expiry, never a removal: the item
 * left the hot table after the archive took it, and the story it belongs to is not changed by that.
 * Images are checked against the record
 * schemas; a record of a version it does not read (READ_RECORD_VERSIONS), or a malformed one, is a StreamRecordError naming the
 * record, never a silently wrong event.
 *
 * `clusterStreamRecordSchema` is the same decoder as a zod schema of a whole stream record, for
 * Powertools' BatchProcessor (`{ parser, schema: clusterStreamRecordSchema }`): the record handler
 * gets the event, and a record that fails to decode is reported as a batch item failure.
 */
import * as z from "zod/mini";
import {
  type ArticleRevision,
  type ClusterMember,
  type ClusterOutlet,
  type ClusterSummary,
  clusterMemberSchema,
  clusterOutletSchema,
  clusterSummarySchema,
  READ_RECORD_VERSIONS,
} from "../records";
import { StreamRecordError, type StreamRecordErrorCode } from "./stream-record-error";
import { isTtlDeletion } from "./ttl-deletion";
import { AttributeValueError, unmarshallImage } from "./unmarshall-image";

/** The parts of a DynamoDB stream record the decoder reads (aws-lambda's DynamoDBRecord fits). */
export interface ClusterStreamRecord {
  readonly eventID?: string | undefined;
  readonly eventName?: string | undefined;
  /** Present on a REMOVE made by DynamoDB's TTL: `{ type: "Service", principalId: "dynamodb.amazonaws.com" }`. */
  readonly userIdentity?: unknown;
  readonly dynamodb?:
    | {
        readonly ApproximateCreationDateTime?: number | undefined;
        readonly Keys?: Readonly<Record<string, unknown>> | undefined;
        readonly NewImage?: Readonly<Record<string, unknown>> | undefined;
        readonly OldImage?: Readonly<Record<string, unknown>> | undefined;
        readonly SequenceNumber?: string | undefined;
      }
    | undefined;
}

/** Where an event came from on the stream. */
export interface StreamPosition {
  readonly cluster_id: string;
  /** The stream's SequenceNumber: increases with every change of one item. */
  readonly sequence: string | null;
  readonly event_id: string | null;
}

export type ClusterStreamEvent = StreamPosition &
  (
    | { readonly type: "story_created"; readonly story: ClusterSummary }
    /** More articles or outlets than before (also the winner of a merge). */
    | {
        readonly type: "story_grew";
        readonly story: ClusterSummary;
        readonly previous: ClusterSummary | null;
      }
    /** Rewritten without growing (a repeated write, an earlier outlet time, a new canonical copy). */
    | {
        readonly type: "story_updated";
        readonly story: ClusterSummary;
        readonly previous: ClusterSummary | null;
      }
    /** Retired: `into` absorbed it (and may itself be merged later: follow the chain). */
    | {
        readonly type: "story_merged";
        readonly into: string;
        readonly story: ClusterSummary;
        readonly previous: ClusterSummary | null;
      }
    /** Not written by storytrail (summaries are never deleted); an operator's clean-up. */
    | { readonly type: "story_removed"; readonly previous: ClusterSummary | null }
    /** The summary's TTL ran out (since version 8): it left the hot table, the story was not retired. */
    | { readonly type: "story_expired"; readonly previous: ClusterSummary | null }
    | { readonly type: "member_added"; readonly member: ClusterMember }
    /** The INSERT half of a merge's move; the REMOVE half is a member_removed under `from`. */
    | { readonly type: "member_moved"; readonly from: string; readonly member: ClusterMember }
    /** Since v8: the member's article was revised at its URL (a MODIFY that raised
     * `latest_revision.number`): `revision` says what changed. */
    | {
        readonly type: "article_revised";
        readonly member: ClusterMember;
        readonly revision: ArticleRevision;
        readonly previous: ClusterMember | null;
      }
    | {
        readonly type: "member_updated";
        readonly member: ClusterMember;
        readonly previous: ClusterMember | null;
      }
    | {
        readonly type: "member_removed";
        readonly article_id: string;
        readonly previous: ClusterMember | null;
      }
    /** The member's TTL ran out (since version 8): the article is archived and still counts in the story. */
    | {
        readonly type: "member_expired";
        readonly article_id: string;
        readonly previous: ClusterMember | null;
      }
    | { readonly type: "outlet_added"; readonly outlet: ClusterOutlet }
    /** The outlet's carried_at moved earlier (a copy published earlier was crawled later). */
    | {
        readonly type: "outlet_updated";
        readonly outlet: ClusterOutlet;
        readonly previous: ClusterOutlet | null;
      }
    /** A merge retired the cluster; the winner has the outlet now. */
    | { readonly type: "outlet_removed"; readonly source_id: string; readonly previous: ClusterOutlet | null }
    /** The outlet item's TTL ran out (since version 8): the outlet still counts in the story. */
    | { readonly type: "outlet_expired"; readonly source_id: string; readonly previous: ClusterOutlet | null }
    /** An item of a kind this version does not know: ignore it. */
    | { readonly type: "unknown"; readonly item: string }
  );

export type ClusterStreamEventType = ClusterStreamEvent["type"];

type Kind = "summary" | "member" | "outlet";

const schemas = {
  summary: clusterSummarySchema,
  member: clusterMemberSchema,
  outlet: clusterOutletSchema,
} as const;

function kindOf(item: string): Kind | null {
  if (item === "summary") return "summary";
  if (item.startsWith("member#")) return "member";
  if (item.startsWith("outlet#")) return "outlet";
  return null;
}

function eventIdOf(record: ClusterStreamRecord): string | null {
  return typeof record.eventID === "string" ? record.eventID : null;
}

function describe(record: ClusterStreamRecord): string {
  const name = typeof record.eventName === "string" ? record.eventName : "(no eventName)";
  return `stream record ${eventIdOf(record) ?? "(no eventID)"} ${name}`;
}

function fail(
  record: ClusterStreamRecord,
  code: StreamRecordErrorCode,
  field: string | null,
  problem: string,
): StreamRecordError {
  return new StreamRecordError(`${describe(record)}: ${problem}`, {
    code,
    field,
    eventID: eventIdOf(record),
  });
}

function image<K extends Kind>(
  record: ClusterStreamRecord,
  kind: K,
  which: "NewImage" | "OldImage",
): z.infer<(typeof schemas)[K]> | null {
  const raw = record.dynamodb?.[which];
  if (raw === undefined || raw === null) return null;
  const at = `dynamodb.${which}`;
  let plain: Record<string, unknown>;
  try {
    plain = unmarshallImage(raw);
  } catch (err) {
    const path = err instanceof AttributeValueError && err.path !== "(image)" ? `${at}.${err.path}` : at;
    throw fail(record, "bad_field", path, `${which}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const reads = `this decoder reads ${READ_RECORD_VERSIONS.join(", ")} (see the README's "Records for consumers")`;
  if (!Object.hasOwn(plain, "record_version"))
    throw fail(
      record,
      "missing_version",
      `${at}.record_version`,
      `${which}: record_version is missing; ${reads}`,
    );
  if (!(READ_RECORD_VERSIONS as readonly unknown[]).includes(plain.record_version))
    throw fail(
      record,
      "unknown_version",
      `${at}.record_version`,
      `${which} has record_version ${JSON.stringify(plain.record_version) ?? String(plain.record_version)}, ${reads}`,
    );
  // Added in v8: an older member had no revision.
  if (kind === "member" && !Object.hasOwn(plain, "latest_revision")) plain.latest_revision = null;
  const parsed = schemas[kind].safeParse(plain);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(item)"}: ${i.message}`);
    const first = parsed.error.issues[0]?.path.join(".");
    throw fail(
      record,
      "bad_field",
      first ? `${at}.${first}` : at,
      `${which} is not a ${kind} record: ${issues.join("; ")}`,
    );
  }
  return parsed.data as z.infer<(typeof schemas)[K]>;
}

function keys(record: ClusterStreamRecord): { cluster_id: string; item: string } {
  const d = record.dynamodb;
  const from = d?.Keys ?? d?.NewImage ?? d?.OldImage;
  let plain: Record<string, unknown> = {};
  try {
    if (from && typeof from === "object")
      plain = unmarshallImage({ cluster_id: from.cluster_id, item: from.item });
  } catch {
    plain = {};
  }
  if (typeof plain.cluster_id !== "string" || typeof plain.item !== "string")
    throw fail(record, "not_a_record", "dynamodb.Keys", "no cluster_id and item in its Keys");
  return { cluster_id: plain.cluster_id, item: plain.item };
}

function grew(story: ClusterSummary, previous: ClusterSummary | null): boolean {
  return (
    !previous || story.article_count > previous.article_count || story.outlet_count > previous.outlet_count
  );
}

function decodeSummary(record: ClusterStreamRecord, name: string) {
  const previous = image(record, "summary", "OldImage");
  if (name === "REMOVE")
    return { type: isTtlDeletion(record) ? "story_expired" : "story_removed", previous } as const;
  const story = image(record, "summary", "NewImage");
  if (!story)
    throw fail(record, "missing_image", "dynamodb.NewImage", "no NewImage (the stream must show new images)");
  if (story.merged_into) return { type: "story_merged", into: story.merged_into, story, previous } as const;
  if (name === "INSERT") return { type: "story_created", story } as const;
  return { type: grew(story, previous) ? "story_grew" : "story_updated", story, previous } as const;
}

function decodeMember(record: ClusterStreamRecord, name: string, item: string) {
  const previous = image(record, "member", "OldImage");
  if (name === "REMOVE")
    return {
      type: isTtlDeletion(record) ? "member_expired" : "member_removed",
      article_id: item.slice("member#".length),
      previous,
    } as const;
  const member = image(record, "member", "NewImage");
  if (!member)
    throw fail(record, "missing_image", "dynamodb.NewImage", "no NewImage (the stream must show new images)");
  if (member.moved_from && member.moved_from !== previous?.moved_from)
    return { type: "member_moved", from: member.moved_from, member } as const;
  if (name === "INSERT") return { type: "member_added", member } as const;
  const revision = member.latest_revision;
  if (revision && revision.number > (previous?.latest_revision?.number ?? 0))
    return { type: "article_revised", member, revision, previous } as const;
  return { type: "member_updated", member, previous } as const;
}

function decodeOutlet(record: ClusterStreamRecord, name: string, item: string) {
  const previous = image(record, "outlet", "OldImage");
  if (name === "REMOVE")
    return {
      type: isTtlDeletion(record) ? "outlet_expired" : "outlet_removed",
      source_id: item.slice("outlet#".length),
      previous,
    } as const;
  const outlet = image(record, "outlet", "NewImage");
  if (!outlet)
    throw fail(record, "missing_image", "dynamodb.NewImage", "no NewImage (the stream must show new images)");
  if (name === "INSERT") return { type: "outlet_added", outlet } as const;
  return { type: "outlet_updated", outlet, previous } as const;
}

/**
 * Decodes one stream record of the Clusters table. Throws StreamRecordError (with a `code`) for any
 * input it cannot decode, whatever its type: the parameter is typed for callers, not trusted.
 */
export function decodeClusterStreamRecord(record: ClusterStreamRecord): ClusterStreamEvent {
  const input: unknown = record;
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new StreamRecordError(
      `not a stream record: ${input === null ? "null" : Array.isArray(input) ? "an array" : typeof input}`,
      { code: "not_a_record" },
    );
  const d: unknown = record.dynamodb;
  if (typeof d !== "object" || d === null || Array.isArray(d))
    throw fail(record, "not_a_record", "dynamodb", "no dynamodb object");
  const name = record.eventName;
  if (name !== "INSERT" && name !== "MODIFY" && name !== "REMOVE")
    throw fail(record, "not_a_record", "eventName", "eventName must be INSERT, MODIFY or REMOVE");
  const { cluster_id, item } = keys(record);
  const position: StreamPosition = {
    cluster_id,
    sequence: typeof record.dynamodb?.SequenceNumber === "string" ? record.dynamodb.SequenceNumber : null,
    event_id: eventIdOf(record),
  };
  const kind = kindOf(item);
  if (kind === "summary") return { ...position, ...decodeSummary(record, name) };
  if (kind === "member") return { ...position, ...decodeMember(record, name, item) };
  if (kind === "outlet") return { ...position, ...decodeOutlet(record, name, item) };
  return { ...position, type: "unknown", item };
}

/**
 * A whole stream record in, its event out: for Powertools' parser integration
 * (`new BatchProcessor(EventType.DynamoDBStreams, { parser, schema: clusterStreamRecordSchema })`).
 */
export const clusterStreamRecordSchema = z.pipe(
  z.object({
    eventID: z.optional(z.string()),
    eventName: z.enum(["INSERT", "MODIFY", "REMOVE"]),
    // Kept (an object schema drops what it does not name): it tells a TTL expiry from a delete.
    userIdentity: z.optional(z.unknown()),
    dynamodb: z.object({
      Keys: z.record(z.string(), z.unknown()),
      NewImage: z.optional(z.record(z.string(), z.unknown())),
      OldImage: z.optional(z.record(z.string(), z.unknown())),
      SequenceNumber: z.optional(z.string()),
    }),
  }),
  z.transform((record, ctx): ClusterStreamEvent => {
    try {
      return decodeClusterStreamRecord(record);
    } catch (err) {
      const params = err instanceof StreamRecordError ? { code: err.code, field: err.field } : undefined;
      ctx.issues.push({ code: "custom", message: (err as Error).message, input: record, params });
      return z.NEVER;
    }
  }),
);
