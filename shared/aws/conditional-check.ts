/**
 * Whether an AWS SDK error is DynamoDB refusing a write because its condition did not hold: the one test
 * every adapter uses. It reads the error's `name` (the SDK sets it on every service exception) rather
 * than `instanceof`, which is false when two copies of @aws-sdk/client-dynamodb are loaded.
 */
export function isConditionalCheckFailure(err: unknown): boolean {
  return (
    typeof err === "object" &&
    err !== null &&
    (err as { name?: unknown }).name === "ConditionalCheckFailedException"
  );
}
