/**
 * Why a Clusters stream record could not be decoded, in fields a consumer can branch on instead of
 * parsing the message. Every input decodeClusterStreamRecord refuses (null, a non-object, a record
 * without `dynamodb`, an image of another version, a bad field) throws this, never a plain TypeError.
 */

/**
 * - `not_a_record`: not a DynamoDB stream record (not an object, no `dynamodb` object, an eventName
 *   other than INSERT, MODIFY or REMOVE, or no `cluster_id` and `item` keys);
 * - `missing_image`: the record has no NewImage where the event needs one (the stream's view type must
 *   be NEW_IMAGE or NEW_AND_OLD_IMAGES);
 * - `missing_version`: an image without `record_version` (not a storytrail record);
 * - `unknown_version`: an image of a `record_version` this decoder does not read (upgrade the package);
 * - `bad_field`: an attribute is malformed DynamoDB JSON or fails the record's schema.
 */
export type StreamRecordErrorCode =
  | "not_a_record"
  | "missing_image"
  | "missing_version"
  | "unknown_version"
  | "bad_field";

export class StreamRecordError extends Error {
  readonly code: StreamRecordErrorCode;
  /** The path of the offending attribute in the record (`dynamodb.NewImage.headline`), when known. */
  readonly field: string | null;
  /** The record's eventID, when it has one. */
  readonly eventID: string | null;

  constructor(
    message: string,
    details: { code: StreamRecordErrorCode; field?: string | null; eventID?: string | null },
  ) {
    super(message);
    this.name = "StreamRecordError";
    this.code = details.code;
    this.field = details.field ?? null;
    this.eventID = details.eventID ?? null;
  }
}
