/**
 * The CloudFormation stack, built by iterating over the topology: every table, queue, bucket,
 * function, trigger and grant comes from infra/topology.ts; nothing here names a resource by hand.
 */
import path from "node:path";
import { Annotations, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import { type Charset, NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3 from "aws-cdk-lib/aws-s3";
import {
  ContextAttribute,
  Schedule,
  ScheduleExpression,
  ScheduleTargetInput,
} from "aws-cdk-lib/aws-scheduler";
import { LambdaInvoke, StepFunctionsStartExecution } from "aws-cdk-lib/aws-scheduler-targets";
import * as sqs from "aws-cdk-lib/aws-sqs";
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from "aws-cdk-lib/cx-api";
import type { Construct } from "constructs";
import { METRICS_NAMESPACE, metricService, qualityMetrics } from "../shared/config/metrics";
import { outputNames } from "../shared/config/resource-names";
import { DEFAULT_SOURCE_SCHEDULE } from "../shared/discover/cadence";
import { AlarmTopic } from "./alarm-topic";
import { ArchiveSteps } from "./archive-steps";
import { BackfillMap } from "./backfill";
import { BUNDLING } from "./bundling";
import { buildDashboard } from "./dashboard";
import { DatasetCatalog } from "./dataset-catalog";
import { type DeploySettings, deploySettings } from "./deploy-settings";
import { v8HeapFlags } from "./memory-sizing";
import {
  acknowledgeAccessLogBucket,
  acknowledgeFunctionRole,
  acknowledgeSchedulerRole,
  acknowledgeTableIndexes,
} from "./nag-suppressions";
import {
  type BucketName,
  environmentFor,
  type FunctionName,
  functionNames,
  type QueueName,
  queueNames,
  type ResourceNames,
  type TableName,
  tableNames,
  topology,
} from "./topology";
import { topologyTable } from "./topology-table";

export interface StorytrailStackProps extends StackProps {
  /** Overrides of the topology's cron per schedule-triggered function (context `<fn>Schedule`). */
  readonly schedules?: Partial<Record<FunctionName, string>>;
  /** The cadence of sources that name none (context `discoverSchedule`; default DEFAULT_SOURCE_SCHEDULE).
   * Sources themselves are data in the Sources table (`storytrail sources push`), never in the template. */
  readonly defaultSourceSchedule?: string;
  /** Repo root the topology's entries are relative to. Default: the parent of infra/. */
  readonly projectRoot?: string;
  /** Deploy-time crawl settings (context `settings`, infra/deploy-settings.ts): every function's environment. */
  readonly settings?: DeploySettings;
}

const POWERTOOLS_ENV = {
  POWERTOOLS_SERVICE_NAME: "storytrail",
  POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
};
const ALARM_PERIOD = Duration.minutes(5);
const LOG_RETENTION = logs.RetentionDays.ONE_MONTH;
const ACCESS_LOG_EXPIRY = Duration.days(90);

const pascal = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);

export class StorytrailStack extends Stack {
  readonly tables = {} as Record<TableName, dynamodb.Table>;
  readonly queues = {} as Record<QueueName, sqs.Queue>;
  readonly deadLetterQueues = {} as Record<QueueName, sqs.Queue>;
  readonly buckets = {} as Record<BucketName, s3.Bucket>;
  /** Every topology function; `backfill` only when the deploy settings leave it on (the default). */
  readonly functions = {} as Record<FunctionName, NodejsFunction>;
  /** The state machines of functions whose schedule runs them in steps (the archive: infra/archive-steps.ts). */
  readonly steps = {} as Partial<Record<FunctionName, ArchiveSteps>>;
  /** The backfill's Distributed Map (infra/backfill.ts), unless the deploy settings turn it off. */
  readonly backfill: BackfillMap | undefined;
  /** Every alarm of the stack goes through it, so each one notifies the topic's subscribers. */
  readonly alarms: AlarmTopic;
  private readonly settings: DeploySettings;

  constructor(scope: Construct, id: string, props: StorytrailStackProps = {}) {
    super(scope, id, props);
    // Log delivery by bucket policy (not ACLs), so both buckets can enforce bucket-owner object
    // ownership whether or not the app's cdk.json sets the flag.
    this.node.setContext(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);
    const projectRoot = props.projectRoot ?? path.resolve(import.meta.dirname, "..");
    this.settings = props.settings ?? deploySettings({});
    this.alarms = new AlarmTopic(this, "Alarms", this.settings.ops);

    for (const name of tableNames) this.tables[name] = this.table(name);
    for (const name of queueNames) this.queue(name);
    this.rawBuckets();
    new DatasetCatalog(this, "Dataset", { bucket: this.buckets.raw, settings: this.settings.ops.dataset });
    const names: ResourceNames = {
      tables: mapRecord(this.tables, (t) => t.tableName),
      queueUrls: mapRecord(this.queues, (q) => q.queueUrl),
      deadLetterQueueUrls: mapRecord(this.deadLetterQueues, (q) => q.queueUrl),
      buckets: mapRecord(this.buckets, (b) => b.bucketName),
    };
    const { backfill } = this.settings.ops;
    for (const name of functionNames) {
      // Off in the deploy settings: neither the function nor its state machine exist.
      if (name === "backfill" && !backfill.enabled) continue;
      this.functions[name] = this.fn(name, projectRoot, names);
      this.trigger(name, props);
    }
    if (backfill.enabled) {
      const fn = this.functions.backfill;
      this.backfill = new BackfillMap(this, "BackfillRun", {
        fn,
        fnRole: fn.role as iam.Role,
        settings: backfill,
        tracing: this.settings.ops.tracing,
        alarms: this.alarms,
      });
    }
    this.qualityAlarm();
    buildDashboard(this, "Dashboard", {
      queues: this.queues,
      deadLetterQueues: this.deadLetterQueues,
      functions: this.functions,
      logGroups: { fetch: this.functions.fetch.logGroup, quality: this.functions.quality.logGroup },
    });
    this.outputs();
    for (const warning of this.settings.warnings)
      Annotations.of(this).addWarningV2("storytrail:settings", warning);
  }

  /** The quality λ counts the publishers whose extraction quality fell suddenly; any in a day alarms. */
  private qualityAlarm(): void {
    this.alarms.alarm(this, "ExtractionQualityDropAlarm", {
      description:
        "A publisher's extraction quality fell suddenly (body length, share with a valid date, or no articles): see the quality function's log for which source and metric.",
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: qualityMetrics.publishersWithDrop,
        dimensionsMap: { service: metricService.quality },
        statistic: "Maximum",
        period: Duration.days(1),
      }),
      above: 0,
    });
  }

  private table(name: TableName): dynamodb.Table {
    return topologyTable(this, `${pascal(name)}Table`, name, this.settings.capacity);
  }

  private queue(name: QueueName): void {
    const spec = topology.queues[name];
    const suffix = spec.fifo ? ".fifo" : "";
    // Names derive from the stack name so two stacks can share an account; FIFO names must end .fifo.
    const base = `${this.stackName}-${name}`;
    const common = {
      fifo: spec.fifo ? true : undefined,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    };
    const dlq = new sqs.Queue(this, `${pascal(name)}DeadLetterQueue`, {
      ...common,
      queueName: `${base}-dlq${suffix}`,
      retentionPeriod: Duration.days(spec.deadLetterRetentionDays),
    });
    const queue = new sqs.Queue(this, `${pascal(name)}Queue`, {
      ...common,
      queueName: `${base}${suffix}`,
      // Senders may omit a deduplication id; an explicit MessageDeduplicationId still wins.
      contentBasedDeduplication: spec.fifo ? true : undefined,
      // High-throughput FIFO: quotas per message group (a host), not per queue. The daily burst's
      // discovery sends ~417 batches a second at 10,000 sources, over the 300 a queue has without it
      // (docs/scale.md). A URL's deduplication id always falls in its host's group, so scoping
      // deduplication to the group drops no guarantee.
      ...(spec.fifo
        ? {
            fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
            deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
          }
        : {}),
      visibilityTimeout: Duration.seconds(spec.visibilityTimeoutSeconds),
      retentionPeriod: Duration.days(spec.retentionDays),
      deadLetterQueue: { queue: dlq, maxReceiveCount: spec.maxReceiveCount },
    });
    this.alarms.alarm(this, `${pascal(name)}DeadLetterAlarm`, {
      description: `Messages in the ${name} dead-letter queue: ${spec.description}`,
      metric: dlq.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: "Maximum" }),
      above: 0,
    });
    this.alarms.alarm(this, `${pascal(name)}QueueAgeAlarm`, {
      description: `The oldest message in the ${name} queue has waited over ${spec.alarmAgeSeconds} s: ${spec.description}`,
      metric: queue.metricApproximateAgeOfOldestMessage({ period: ALARM_PERIOD, statistic: "Maximum" }),
      above: spec.alarmAgeSeconds,
      // Three periods: one slow host's batch may hold the age up briefly without a stall.
      periods: 3,
    });
    this.queues[name] = queue;
    this.deadLetterQueues[name] = dlq;
  }

  private rawBuckets(): void {
    const accessLogs = new s3.Bucket(this, "AccessLogsBucket", {
      encryption: s3.BucketEncryption.S3_MANAGED, // the only encryption S3 server access logging accepts
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      lifecycleRules: [
        { expiration: ACCESS_LOG_EXPIRY, abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeAccessLogBucket(accessLogs);
    for (const name of Object.keys(topology.buckets) as BucketName[]) {
      const spec = topology.buckets[name];
      this.buckets[name] = new s3.Bucket(this, `${pascal(name)}Bucket`, {
        encryption: s3.BucketEncryption.S3_MANAGED,
        blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
        objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        enforceSSL: true,
        // Unversioned: samples are write-once caches keyed by article, re-fetchable, and expire anyway;
        // versions would only keep overwritten copies past the lifecycle's reach.
        versioned: false,
        lifecycleRules: [
          {
            prefix: spec.expirePrefix,
            expiration: Duration.days(spec.expireAfterDays),
          },
          { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ],
        serverAccessLogsBucket: accessLogs,
        serverAccessLogsPrefix: `${name}/`,
        removalPolicy: RemovalPolicy.RETAIN,
      });
    }
  }

  private fn(name: FunctionName, projectRoot: string, names: ResourceNames): NodejsFunction {
    const spec = topology.functions[name];
    const id = pascal(name);
    const logGroup = new logs.LogGroup(this, `${id}Logs`, { retention: LOG_RETENTION });
    // An own role instead of AWSLambdaBasicExecutionRole: logs go to this function's group only.
    const role = new iam.Role(this, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: `storytrail ${name} function`,
    });
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: ["logs:CreateLogStream", "logs:PutLogEvents"],
        resources: [logGroup.logGroupArn],
      }),
    );
    const fn = new NodejsFunction(this, `${id}Function`, {
      entry: path.join(projectRoot, spec.entry),
      handler: "handler",
      projectRoot,
      depsLockFilePath: path.join(projectRoot, "package-lock.json"),
      description: spec.description,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: spec.memoryMb,
      timeout: Duration.seconds(spec.timeoutSeconds),
      tracing: this.settings.ops.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      role,
      logGroup,
      environment: {
        ...environmentFor(name, names),
        ...this.settings.env,
        ...POWERTOOLS_ENV,
        // Source maps for stack traces; the heap bounded as Lambda's bootstrap bounds it (memory-sizing.ts).
        NODE_OPTIONS: ["--enable-source-maps", ...v8HeapFlags(spec.memoryMb)].join(" "),
      },
      bundling: {
        forceDockerBundling: false,
        // infra/bundling.ts declares these once; the bench and the bundle test build with them too.
        format: OutputFormat.ESM,
        mainFields: [...BUNDLING.mainFields],
        banner: BUNDLING.banner,
        minify: BUNDLING.minify,
        charset: BUNDLING.charset as Charset, // the enum's value is esbuild's own ("utf8")
        sourceMap: BUNDLING.sourceMap,
        sourcesContent: BUNDLING.sourcesContent,
        externalModules: [...BUNDLING.externalModules],
      },
    });
    this.grant(name, fn);
    // Scheduled runs have no DLQ of their own: an error alarm is how a failed run gets noticed.
    this.alarms.alarm(this, `${id}ErrorsAlarm`, {
      description: `The ${name} function threw: ${spec.description}`,
      metric: fn.metricErrors({ period: ALARM_PERIOD, statistic: "Sum" }),
      above: 0,
    });
    this.alarms.alarm(this, `${id}ThrottlesAlarm`, {
      description: `The ${name} function was throttled (account or reserved concurrency reached): ${spec.description}`,
      metric: fn.metricThrottles({ period: ALARM_PERIOD, statistic: "Sum" }),
      above: 0,
    });
    const { buckets, objects } = topology.functions[name].access;
    acknowledgeFunctionRole(
      role,
      this.settings.ops.tracing,
      (Object.entries(buckets) as [BucketName, "read" | "write" | "readwrite"][]).map(([bucket, mode]) => ({
        bucket: this.buckets[bucket],
        mode,
        keys: `${objects?.prefix ?? ""}*`,
        delete: objects?.delete ?? false,
      })),
    );
    return fn;
  }

  /** Exactly the access the topology declares, nothing else. */
  private grant(name: FunctionName, fn: NodejsFunction): void {
    const { access } = topology.functions[name];
    for (const [table, mode] of Object.entries(access.tables) as [TableName, "read" | "readwrite"][]) {
      if (mode === "read") this.tables[table].grantReadData(fn);
      else this.tables[table].grantReadWriteData(fn);
      if (topology.tables[table].indexes && fn.role) acknowledgeTableIndexes(fn.role, this.tables[table]);
    }
    for (const queue of Object.keys(access.queues) as QueueName[]) this.queues[queue].grantSendMessages(fn);
    for (const queue of Object.keys(access.deadLetterQueues ?? {}) as QueueName[])
      this.deadLetterQueues[queue].grantSendMessages(fn);
    // Object actions only under the function's own prefix when it has one (the archive's `dataset/`).
    const keys = `${access.objects?.prefix ?? ""}*`;
    for (const [bucket, mode] of Object.entries(access.buckets) as [BucketName, string][]) {
      if (mode === "read" || mode === "readwrite") this.buckets[bucket].grantRead(fn, keys);
      if (mode === "write" || mode === "readwrite") this.buckets[bucket].grantPut(fn, keys);
      if (access.objects?.delete) this.buckets[bucket].grantDelete(fn, keys);
    }
  }

  private trigger(name: FunctionName, props: StorytrailStackProps): void {
    const { trigger } = topology.functions[name];
    const fn = this.functions[name];
    // The Distributed Map (infra/backfill.ts) is the backfill function's trigger.
    if (trigger.kind === "distributed-map") return;
    if (trigger.kind === "queue") {
      fn.addEventSource(
        new SqsEventSource(this.queues[trigger.queue], {
          batchSize: trigger.batchSize,
          maxConcurrency: trigger.maxConcurrency,
          reportBatchItemFailures: true,
        }),
      );
      return;
    }
    const cron = props.schedules?.[name] ?? trigger.cron;
    // Only the scheduler of this account may assume the role.
    const role = new iam.Role(this, `${pascal(name)}SchedulerRole`, {
      assumedBy: new iam.ServicePrincipal("scheduler.amazonaws.com", {
        conditions: { StringEquals: { "aws:SourceAccount": this.account } },
      }),
      description: `EventBridge Scheduler ${trigger.steps ? "starting the state machine of" : "invoking"} the storytrail ${name} function`,
    });
    if (trigger.steps) {
      // The schedule starts the run of steps (its grant: StartExecution on this one state machine).
      const steps = new ArchiveSteps(this, `${pascal(name)}Steps`, {
        fn,
        spec: trigger.steps,
        tracing: this.settings.ops.tracing,
        alarms: this.alarms,
      });
      this.steps[name] = steps;
      new Schedule(this, `${pascal(name)}Schedule`, {
        schedule: ScheduleExpression.expression(cron),
        description: trigger.description,
        target: new StepFunctionsStartExecution(steps.stateMachine, {
          role,
          input: ScheduleTargetInput.fromObject({}),
          retryAttempts: 2,
          maxEventAge: Duration.hours(1),
        }),
      });
      return;
    }
    acknowledgeSchedulerRole(role, fn);
    // The dispatcher's tick tells it which window it covers and the cadence of sources naming none.
    const input = trigger.tick
      ? ScheduleTargetInput.fromObject({
          scheduled_time: ContextAttribute.scheduledTime,
          default_schedule: props.defaultSourceSchedule ?? DEFAULT_SOURCE_SCHEDULE,
        })
      : undefined;
    new Schedule(this, `${pascal(name)}Schedule`, {
      schedule: ScheduleExpression.expression(cron),
      description: trigger.description,
      target: new LambdaInvoke(fn, { role, input, retryAttempts: 2, maxEventAge: Duration.hours(1) }),
    });
  }

  private outputs(): void {
    for (const name of tableNames) {
      const table = this.tables[name];
      // A streamed table's name and stream are exported: a consumer's own stack imports them
      // (Fn.importValue, examples/cluster-consumer) and attaches with ClusterStreamConsumer.
      const exported = (what: string) =>
        table.tableStreamArn ? { exportName: `${this.stackName}-${pascal(name)}${what}` } : {};
      new CfnOutput(this, outputNames.table(name), { value: table.tableName, ...exported("TableName") });
      if (table.tableStreamArn) {
        new CfnOutput(this, `${pascal(name)}StreamArn`, {
          value: table.tableStreamArn,
          description: `Stream of the ${name} table (${topology.tables[name].stream}); consumers attach here.`,
          ...exported("StreamArn"),
        });
      }
    }
    for (const name of queueNames) {
      new CfnOutput(this, `${pascal(name)}QueueUrl`, { value: this.queues[name].queueUrl });
      new CfnOutput(this, `${pascal(name)}DeadLetterQueueUrl`, {
        value: this.deadLetterQueues[name].queueUrl,
      });
    }
    for (const name of Object.keys(this.buckets) as BucketName[])
      new CfnOutput(this, `${pascal(name)}BucketName`, { value: this.buckets[name].bucketName });
  }
}

function mapRecord<K extends string, V, W>(record: Record<K, V>, f: (v: V) => W): Record<K, W> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v as V)])) as Record<K, W>;
}
