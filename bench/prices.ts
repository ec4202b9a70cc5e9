/**
 * AWS list prices, us-east-1, in US dollars. Written down 2026-12 from the public pricing pages named
 * beside each constant (on-demand, no free tier, first volume tier); check them again before quoting.
 */
export const PRICES = {
  region: "us-east-1",
  /** https://aws.amazon.com/lambda/pricing/ — Arm, first 7.5 billion GB-s a month. */
  lambdaArmPerGbSecond: 0.0000133334,
  /** https://aws.amazon.com/lambda/pricing/ — $0.20 per million requests. */
  lambdaPerRequest: 0.2 / 1e6,
  /** https://aws.amazon.com/sqs/pricing/ — standard queue, $0.40 per million requests (64 KB chunks). */
  sqsStandardPerRequest: 0.4 / 1e6,
  /** https://aws.amazon.com/sqs/pricing/ — FIFO queue, $0.50 per million requests (64 KB chunks). */
  sqsFifoPerRequest: 0.5 / 1e6,
  /** Every 64 KB chunk of a request's payload is billed as one request. */
  sqsChunkBytes: 64 * 1024,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — $0.625 per million write request units. */
  dynamoPerWru: 0.625 / 1e6,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — $0.125 per million read request units. */
  dynamoPerRru: 0.125 / 1e6,
  /** https://aws.amazon.com/dynamodb/pricing/provisioned/ — $0.00065 per write capacity unit-hour. */
  dynamoPerWcuHour: 0.00065,
  /** https://aws.amazon.com/dynamodb/pricing/provisioned/ — $0.00013 per read capacity unit-hour. */
  dynamoPerRcuHour: 0.00013,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — Standard table class, $0.25 per GB-month. */
  dynamoStoragePerGbMonth: 0.25,
  /** DynamoDB adds 100 bytes of index overhead per item to the stored size. */
  dynamoItemOverheadBytes: 100,
  /** https://aws.amazon.com/s3/pricing/ — S3 Standard PUT, COPY, POST, LIST: $0.005 per 1,000. */
  s3PerPut: 0.005 / 1000,
  /** https://aws.amazon.com/s3/pricing/ — S3 Standard GET: $0.0004 per 1,000. */
  s3PerGet: 0.0004 / 1000,
  /** https://aws.amazon.com/s3/pricing/ — S3 Standard, first 50 TB: $0.023 per GB-month. */
  s3StoragePerGbMonth: 0.023,
  /** https://aws.amazon.com/cloudwatch/pricing/ — Logs ingestion, Standard class: $0.50 per GB. */
  logsIngestPerGb: 0.5,
  /** https://aws.amazon.com/xray/pricing/ — $5.00 per million traces recorded (the stack turns active tracing on). */
  xrayPerTrace: 5 / 1e6,
  /** https://aws.amazon.com/step-functions/pricing/ — Standard workflows, $0.025 per 1,000 state transitions. */
  sfnStandardPerTransition: 0.025 / 1000,
  /** https://aws.amazon.com/cloudwatch/pricing/ — custom metric, first 10,000: $0.30 a month (billed per metric-hour published). */
  cloudwatchMetricPerMonth: 0.3,
  /** https://aws.amazon.com/cloudwatch/pricing/ — standard-resolution alarm: $0.10 per alarm metric a month. */
  cloudwatchAlarmPerMonth: 0.1,
  /** https://aws.amazon.com/cloudwatch/pricing/ — $3.00 per dashboard a month (three free per account; not counted). */
  cloudwatchDashboardPerMonth: 3,
  /** https://aws.amazon.com/kms/pricing/ — $1.00 per customer managed key a month. */
  kmsKeyPerMonth: 1,
  /** https://aws.amazon.com/eventbridge/pricing/ — Scheduler: $1.00 per million invocations after 14 million free a month. */
  schedulerPerInvocation: 1 / 1e6,
} as const;

export type Prices = typeof PRICES;

/** AWS bills storage and log volume in binary gigabytes. */
export const GB = 2 ** 30;
