/**
 * An SQS record as Lambda's event source hands it over, for a handler invoked directly (no real queue
 * behind its receipt handle: nothing may be put back from a batch of these).
 */
import type { SQSRecord } from "aws-lambda";

export interface SqsRecordOf {
  readonly id: string;
  readonly body: string;
  /** The queue's name in the record's ARN. */
  readonly queue: string;
  /** ApproximateReceiveCount: 1 on a first delivery. */
  readonly delivery?: number;
}

export function sqsRecord({ id, body, queue, delivery = 1 }: SqsRecordOf): SQSRecord {
  return {
    messageId: id,
    receiptHandle: `rh-${id}`,
    body,
    attributes: {
      ApproximateReceiveCount: String(delivery),
      SentTimestamp: "0",
      SenderId: "test",
      ApproximateFirstReceiveTimestamp: "0",
    },
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
    awsRegion: "us-east-1",
  };
}
