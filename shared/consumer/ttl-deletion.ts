/**
 * How a DynamoDB stream tells a TTL expiry from a delete: the REMOVE record of an item that Time to
 * Live deleted carries `userIdentity: { type: "Service", principalId: "dynamodb.amazonaws.com" }`;
 * every other record has no userIdentity (AWS: "Using DynamoDB Streams and Time to Live"). The local
 * runtime stamps its emulated expiries with the same object (infra/local/ttl-sweeper.ts).
 */
export const TTL_DELETION_IDENTITY = { type: "Service", principalId: "dynamodb.amazonaws.com" } as const;

/** True for a REMOVE that DynamoDB's TTL made (the record's `userIdentity` says so), not a delete. */
export function isTtlDeletion(record: {
  readonly eventName?: unknown;
  readonly userIdentity?: unknown;
}): boolean {
  const who = record.userIdentity;
  if (record.eventName !== "REMOVE" || typeof who !== "object" || who === null) return false;
  const { type, principalId } = who as { type?: unknown; principalId?: unknown };
  return type === TTL_DELETION_IDENTITY.type && principalId === TTL_DELETION_IDENTITY.principalId;
}
