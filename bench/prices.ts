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
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — Standard-IA table class, $0.10 per GB-month. */
  dynamoIaStoragePerGbMonth: 0.1,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — Standard-IA: $0.78125 per million WRU, 25 % over Standard. */
  dynamoIaPerWru: (0.625 * 1.25) / 1e6,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — Standard-IA: $0.15625 per million RRU, 25 % over Standard. */
  dynamoIaPerRru: (0.125 * 1.25) / 1e6,
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ — continuous backups (PITR), $0.20 per GB-month of table
   * size, either table class (checked 2026-12-06). */
  dynamoPitrPerGbMonth: 0.2,
  /** https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TTL.html — TTL deletes use no write
   * capacity: free (checked 2026-12-06). Their stream records are read free by a Lambda trigger. */
  dynamoTtlDeletePerItem: 0,
  /** DynamoDB adds 100 bytes of index overhead per item to the stored size. */
  dynamoItemOverheadBytes: 100,
  /** https://aws.amazon.com/s3/pricing/ — S3 Standard PUT, COPY, POST, LIST: $0.005 per 1,000. */
  s3PerPut: 0.005 / 1000,
  /** https://aws.amazon.com/s3/pricing/ — S3 Standard LIST, priced as a PUT: $0.005 per 1,000 (checked 2026-12-06). */
  s3PerList: 0.005 / 1000,
  /** https://aws.amazon.com/s3/pricing/ — S3 Standard GET: $0.0004 per 1,000. */
  s3PerGet: 0.0004 / 1000,
  /** https://aws.amazon.com/s3/pricing/ — S3 Standard, first 50 TB: $0.023 per GB-month. */
  s3StoragePerGbMonth: 0.023,
  /** https://aws.amazon.com/athena/pricing/ — SQL queries, $5.00 per TB scanned, rounded up to the MB (checked
   * 2026-12-06). */
  athenaPerTbScanned: 5,
  /** https://aws.amazon.com/athena/pricing/ — every query is billed at least 10 MB scanned. */
  athenaMinBytesPerQuery: 10 * 2 ** 20,
  /** https://aws.amazon.com/glue/pricing/ — Data Catalog: the first million objects stored and the first million
   * requests a month are free; then $1.00 per 100,000 objects a month and $1.00 per million requests (checked
   * 2026-12-06). Partition projection stores no partitions: the archive's catalog is a database and two tables. */
  glueFreeObjects: 1e6,
  glueFreeRequestsPerMonth: 1e6,
  gluePerObjectMonth: 1 / 100_000,
  gluePerRequest: 1 / 1e6,
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
/** Athena's terabyte, binary like the gigabyte above. */
export const TB = 2 ** 40;
