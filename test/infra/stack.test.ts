import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { App, type CfnElement, Stack } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import type { IConstruct } from "constructs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploySettings } from "../../infra/deploy-settings";
import { LAMBDA_NODE_MAJOR, v8HeapFlags } from "../../infra/memory-sizing";
import { StorytrailStack } from "../../infra/stack";
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
} from "../../infra/topology";
import {
  dedupMetrics,
  discoverMetrics,
  dispatchMetrics,
  fetchMetrics,
  METRICS_NAMESPACE,
  metricService,
  qualityMetrics,
} from "../../shared/config/metrics";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const DISCOVER_OVERRIDE = "cron(30 4 * * ? *)";

const SETTINGS = {
  STORYTRAIL_USER_AGENT: "examplebot/1.0 (+https://ops.example/crawler)",
  STORYTRAIL_MIN_HOST_DELAY_MS: 2000,
};
const OPS = {
  alarm_emails: ["oncall@ops.example", "crawler-team@ops.example"],
  alarm_https_endpoints: ["https://events.pagerduty.example/integration/abc/enqueue"],
};

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };
let app: App;
let stack: StorytrailStack;
let template: Template;
let resources: Record<string, Resource>;

// Synthesizing bundles every handler with esbuild: do it once for the whole file.
beforeAll(() => {
  const { context } = JSON.parse(readFileSync(path.join(repoRoot, "cdk.json"), "utf8")) as {
    context: Record<string, unknown>;
  };
  app = new App({ context, outdir: mkdtempSync(path.join(tmpdir(), "storytrail-cdk-")) });
  stack = new StorytrailStack(app, "StorytrailTest", {
    projectRoot: repoRoot,
    defaultSourceSchedule: DISCOVER_OVERRIDE,
    settings: deploySettings({ ...SETTINGS, ...OPS }),
  });
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources as Record<string, Resource>;
});

afterAll(() => rmSync(app.outdir, { recursive: true, force: true }));

const logicalId = (construct: IConstruct): string =>
  stack.resolve((construct.node.defaultChild as CfnElement).logicalId) as string;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
/** Every logical id a value refers to (Ref / Fn::GetAtt), however deeply nested. */
function refs(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.Ref === "string") out.add(o.Ref);
    const getAtt = o["Fn::GetAtt"];
    if (Array.isArray(getAtt) && typeof getAtt[0] === "string") out.add(getAtt[0]);
    for (const v of Object.values(o)) refs(v, out);
  }
  return out;
}
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
/** The statements of the policies attached to a function's role. */
function statementsOf(fn: FunctionName): Statement[] {
  const roleId = logicalId(stack.functions[fn].role!);
  return ofType("AWS::IAM::Policy")
    .filter(([, p]) => refs(p.Properties.Roles).has(roleId))
    .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}
const actions = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

describe("tables", () => {
  it("has exactly one table per topology table", () => {
    template.resourceCountIs("AWS::DynamoDB::Table", tableNames.length);
    // On demand by default: nothing to scale (provisioned mode: test/infra/capacity-mode.test.ts).
    template.resourceCountIs("AWS::ApplicationAutoScaling::ScalableTarget", 0);
  });

  it.each(tableNames)(
    "%s: keys, on-demand, its PITR, TTL and class, AWS-managed encryption, retained",
    (name: TableName) => {
      const spec = topology.tables[name];
      const table = resources[logicalId(stack.tables[name])]!;
      expect(table.DeletionPolicy).toBe("Retain");
      const keys = [
        { AttributeName: spec.partitionKey.name, KeyType: "HASH" },
        ...(spec.sortKey ? [{ AttributeName: spec.sortKey.name, KeyType: "RANGE" }] : []),
      ];
      expect(table.Properties).toMatchObject({
        KeySchema: keys,
        BillingMode: "PAY_PER_REQUEST",
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: spec.backup.pointInTimeRecovery },
        SSESpecification: { SSEEnabled: true },
        TableClass: spec.tableClass,
      });
      expect(table.Properties.TimeToLiveSpecification).toEqual(
        spec.timeToLiveAttribute ? { AttributeName: spec.timeToLiveAttribute, Enabled: true } : undefined,
      );
      const indexes = Object.entries(spec.indexes ?? {});
      const indexKeys = indexes.flatMap(([, x]) => [x.partitionKey, ...(x.sortKey ? [x.sortKey] : [])]);
      expect(table.Properties.AttributeDefinitions).toEqual(
        [spec.partitionKey, ...(spec.sortKey ? [spec.sortKey] : []), ...indexKeys].map((k) => ({
          AttributeName: k.name,
          AttributeType: k.type,
        })),
      );
      expect(table.Properties.GlobalSecondaryIndexes ?? []).toEqual(
        indexes.map(([IndexName, x]) => ({
          IndexName,
          KeySchema: [
            { AttributeName: x.partitionKey.name, KeyType: "HASH" },
            ...(x.sortKey ? [{ AttributeName: x.sortKey.name, KeyType: "RANGE" }] : []),
          ],
          Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: [...x.include] },
        })),
      );
      expect((table.Properties.StreamSpecification as { StreamViewType?: string })?.StreamViewType).toBe(
        spec.stream,
      );
    },
  );

  it("streams the clusters table with new and old images, and outputs its stream ARN", () => {
    template.hasResourceProperties("AWS::DynamoDB::Table", {
      KeySchema: [
        { AttributeName: "cluster_id", KeyType: "HASH" },
        { AttributeName: "item", KeyType: "RANGE" },
      ],
      StreamSpecification: { StreamViewType: "NEW_AND_OLD_IMAGES" },
    });
    template.hasOutput("ClustersStreamArn", {
      Value: { "Fn::GetAtt": [logicalId(stack.tables.clusters), "StreamArn"] },
      Export: { Name: "StorytrailTest-ClustersStreamArn" },
    });
  });
});

describe("queues", () => {
  it.each(queueNames)(
    "%s: DLQ of the same kind, redrive, SSE, timeouts from the topology",
    (name: QueueName) => {
      const spec = topology.queues[name];
      const queue = resources[logicalId(stack.queues[name])]!.Properties;
      const dlqId = logicalId(stack.deadLetterQueues[name]);
      const dlq = resources[dlqId]!.Properties;
      expect(queue).toMatchObject({
        VisibilityTimeout: spec.visibilityTimeoutSeconds,
        MessageRetentionPeriod: spec.retentionDays * 86_400,
        RedrivePolicy: {
          deadLetterTargetArn: { "Fn::GetAtt": [dlqId, "Arn"] },
          maxReceiveCount: spec.maxReceiveCount,
        },
        SqsManagedSseEnabled: true,
      });
      expect(dlq.SqsManagedSseEnabled).toBe(true);
      expect(Boolean(queue.FifoQueue)).toBe(spec.fifo);
      expect(Boolean(dlq.FifoQueue)).toBe(spec.fifo);
      const suffix = spec.fifo ? ".fifo" : "";
      expect(queue.QueueName).toBe(`StorytrailTest-${name}${suffix}`);
      expect(dlq.QueueName).toBe(`StorytrailTest-${name}-dlq${suffix}`);
    },
  );

  it("makes the fetch queue standard, and lets fetch put a page back until its host's slot", () => {
    expect(resources[logicalId(stack.queues.fetch)]!.Properties.FifoQueue).toBeUndefined();
    // The event source's consume grant: fetch changes a received page's visibility on its own queue.
    const fetchQueue = logicalId(stack.queues.fetch);
    const grants = ofType("AWS::IAM::Policy").flatMap(
      ([, p]) => (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement,
    );
    expect(
      grants.some(
        (st) =>
          [st.Action].flat().includes("sqs:ChangeMessageVisibility") &&
          JSON.stringify(st.Resource).includes(fetchQueue),
      ),
    ).toBe(true);
  });

  it("denies non-TLS access to every queue", () => {
    const policies = ofType("AWS::SQS::QueuePolicy");
    const secured = new Set<string>();
    for (const [, p] of policies) {
      const statements = (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
      if (
        statements.some(
          (s) => s.Effect === "Deny" && JSON.stringify(s.Condition).includes("aws:SecureTransport"),
        )
      )
        for (const id of refs(p.Properties.Queues)) secured.add(id);
    }
    for (const name of queueNames) {
      expect(secured).toContain(logicalId(stack.queues[name]));
      expect(secured).toContain(logicalId(stack.deadLetterQueues[name]));
    }
  });

  it.each(queueNames)("%s: alarms as soon as its DLQ holds a message", (name: QueueName) => {
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "ApproximateNumberOfMessagesVisible",
      Namespace: "AWS/SQS",
      Threshold: 0,
      ComparisonOperator: "GreaterThanThreshold",
      Dimensions: [
        {
          Name: "QueueName",
          Value: { "Fn::GetAtt": [logicalId(stack.deadLetterQueues[name]), "QueueName"] },
        },
      ],
    });
  });
});

describe("functions", () => {
  it.each(functionNames)(
    "%s: nodejs24.x on arm64, memory and timeout from the topology",
    (name: FunctionName) => {
      const spec = topology.functions[name];
      const fn = resources[logicalId(stack.functions[name])]!.Properties;
      expect(fn).toMatchObject({
        // The Node.js whose measured peaks size the functions (infra/memory-sizing.ts).
        Runtime: `nodejs${LAMBDA_NODE_MAJOR}.x`,
        Architectures: ["arm64"],
        MemorySize: spec.memoryMb,
        Timeout: spec.timeoutSeconds,
        Handler: "index.handler",
      });
      // Tracing is off unless the deploy settings turn it on: no handler has a tracer (issue 13).
      expect(fn.TracingConfig).toBeUndefined();
      const logGroupId = [...refs((fn.LoggingConfig as { LogGroup: unknown }).LogGroup)][0]!;
      expect(resources[logGroupId]).toMatchObject({
        Type: "AWS::Logs::LogGroup",
        Properties: { RetentionInDays: 30 },
      });
    },
  );

  it.each(functionNames)(
    "%s: env is exactly environmentFor(), the deploy settings and Powertools",
    (name: FunctionName) => {
      const names: ResourceNames = {
        tables: Object.fromEntries(tableNames.map((t) => [t, t])) as Record<TableName, string>,
        queueUrls: Object.fromEntries(queueNames.map((q) => [q, q])) as Record<QueueName, string>,
        deadLetterQueueUrls: Object.fromEntries(queueNames.map((q) => [q, `${q}-dlq`])) as Record<
          QueueName,
          string
        >,
        buckets: { raw: "raw" },
      };
      const vars = (
        resources[logicalId(stack.functions[name])]!.Properties.Environment as { Variables: object }
      ).Variables as Record<string, unknown>;
      expect(Object.keys(vars).sort()).toEqual(
        [
          ...Object.keys(environmentFor(name, names)),
          ...Object.keys(SETTINGS),
          "NODE_OPTIONS",
          "POWERTOOLS_METRICS_NAMESPACE",
          "POWERTOOLS_SERVICE_NAME",
        ].sort(),
      );
      expect(vars).toMatchObject({
        STORYTRAIL_USER_AGENT: SETTINGS.STORYTRAIL_USER_AGENT,
        STORYTRAIL_MIN_HOST_DELAY_MS: "2000",
        POWERTOOLS_SERVICE_NAME: "storytrail",
        POWERTOOLS_METRICS_NAMESPACE: "storytrail",
      });
      // The heap bounded as Lambda's bootstrap bounds it for this size: what the memory bench measured under.
      expect(String(vars.NODE_OPTIONS).split(" ")).toEqual([
        "--enable-source-maps",
        ...v8HeapFlags(topology.functions[name].memoryMb),
      ]);
      // Each variable points at the resource the topology names.
      for (const [table] of Object.entries(topology.functions[name].access.tables)) {
        expect(vars[`TABLE_${table.toUpperCase()}`]).toEqual({
          Ref: logicalId(stack.tables[table as TableName]),
        });
      }
    },
  );

  it.each(functionNames)("%s: bundled locally as ESM (.mjs) with a require shim", (name: FunctionName) => {
    const code = resources[logicalId(stack.functions[name])]!.Properties.Code as { S3Key: string };
    const bundle = path.join(app.outdir, `asset.${code.S3Key.replace(/\.zip$/, "")}`, "index.mjs");
    expect(existsSync(bundle)).toBe(true);
    expect(existsSync(`${bundle}.map`)).toBe(true);
    expect(readFileSync(bundle, "utf8")).toMatch(
      /^import \{ createRequire as (\w+) \} from 'node:module'; const require = \1\(import\.meta\.url\);/,
    );
  });

  it.each(functionNames)("%s: alarms when the function throws", (name: FunctionName) => {
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "Errors",
      Namespace: "AWS/Lambda",
      Threshold: 0,
      ComparisonOperator: "GreaterThanThreshold",
      Dimensions: [{ Name: "FunctionName", Value: { Ref: logicalId(stack.functions[name]) } }],
    });
  });

  it("alarms on a sudden per-publisher extraction quality drop (the quality λ's bounded count)", () => {
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "PublishersWithQualityDrop",
      Namespace: "storytrail",
      Dimensions: [{ Name: "service", Value: "quality" }],
      Threshold: 0,
      ComparisonOperator: "GreaterThanThreshold",
    });
  });

  it("maps each queue-triggered function to its queue with partial batch failures", () => {
    const queued = functionNames.filter((f) => topology.functions[f].trigger.kind === "queue");
    template.resourceCountIs("AWS::Lambda::EventSourceMapping", queued.length);
    for (const name of queued) {
      const trigger = topology.functions[name].trigger;
      if (trigger.kind !== "queue") continue;
      template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
        FunctionName: { Ref: logicalId(stack.functions[name]) },
        EventSourceArn: { "Fn::GetAtt": [logicalId(stack.queues[trigger.queue]), "Arn"] },
        BatchSize: trigger.batchSize,
        FunctionResponseTypes: ["ReportBatchItemFailures"],
        ScalingConfig: { MaximumConcurrency: trigger.maxConcurrency },
      });
    }
  });
});

describe("schedules", () => {
  const schedulesOf = (name: FunctionName) =>
    ofType("AWS::Scheduler::Schedule")
      .map(
        ([, r]) => r.Properties as { ScheduleExpression: string; Target: { Arn: unknown; Input?: string } },
      )
      .filter((s) => refs(s.Target.Arn).has(logicalId(stack.functions[name])));

  it("ticks the dispatcher with its scheduled time and the default source cadence, nothing per source", () => {
    const [tick, ...more] = schedulesOf("dispatch");
    expect(more).toEqual([]);
    const trigger = topology.functions.dispatch.trigger;
    expect(tick!.ScheduleExpression).toBe(trigger.kind === "schedule" ? trigger.cron : "");
    expect(JSON.parse(tick!.Target.Input!)).toEqual({
      scheduled_time: "<aws.scheduler.scheduled-time>",
      default_schedule: DISCOVER_OVERRIDE,
    });
  });

  it("runs every other scheduled function on its topology cron (the archive: its state machine of steps)", () => {
    const startsSteps = (name: FunctionName) =>
      ofType("AWS::Scheduler::Schedule")
        .map(([, r]) => r.Properties as { ScheduleExpression: string; Target: { Arn: unknown } })
        .filter((s) => refs(s.Target.Arn).has(logicalId(stack.steps[name]!.stateMachine)));
    for (const name of functionNames) {
      const trigger = topology.functions[name].trigger;
      if (trigger.kind !== "schedule" || name === "dispatch") continue;
      const scheduled = trigger.steps ? startsSteps(name) : schedulesOf(name);
      expect(scheduled.map((s) => s.ScheduleExpression)).toEqual([trigger.cron]);
      if (trigger.steps) expect(schedulesOf(name)).toEqual([]);
    }
  });
});

/** What both buckets (raw samples and their access logs) must be: SSE-S3 encrypted, never public. */
const ENCRYPTED_PRIVATE_BUCKET = {
  BucketEncryption: {
    ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
  },
  PublicAccessBlockConfiguration: {
    BlockPublicAcls: true,
    BlockPublicPolicy: true,
    IgnorePublicAcls: true,
    RestrictPublicBuckets: true,
  },
};

describe("raw bucket", () => {
  it("is encrypted, private, lifecycled, logged and retained", () => {
    const raw = resources[logicalId(stack.buckets.raw)]!;
    expect(raw.DeletionPolicy).toBe("Retain");
    expect(raw.Properties).toMatchObject({
      ...ENCRYPTED_PRIVATE_BUCKET,
      LifecycleConfiguration: {
        // Only the raw samples expire: the archive (dataset/) is the dataset of record.
        Rules: [
          {
            Prefix: topology.buckets.raw.expirePrefix,
            ExpirationInDays: topology.buckets.raw.expireAfterDays,
            Status: "Enabled",
          },
          { AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: "Enabled" },
          // Athena's query results (infra/dataset-catalog.ts).
          { Prefix: "athena-results/", ExpirationInDays: 30, Status: "Enabled" },
        ],
      },
    });
    expect(raw.Properties.VersioningConfiguration).toBeUndefined();
    const logBucketId = [...refs(raw.Properties.LoggingConfiguration)][0]!;
    expect(resources[logBucketId]).toMatchObject({
      Type: "AWS::S3::Bucket",
      DeletionPolicy: "Retain",
      Properties: ENCRYPTED_PRIVATE_BUCKET,
    });
    expect(resources[logBucketId]!.Properties.LifecycleConfiguration).toBeDefined();
  });

  it("denies non-TLS requests on both buckets", () => {
    const secured = ofType("AWS::S3::BucketPolicy")
      .filter(([, p]) =>
        (
          p.Properties.PolicyDocument as { Statement: { Effect: string; Condition?: unknown }[] }
        ).Statement.some(
          (s) => s.Effect === "Deny" && JSON.stringify(s.Condition).includes('"aws:SecureTransport":"false"'),
        ),
      )
      .flatMap(([, p]) => [...refs(p.Properties.Bucket)]);
    expect(secured).toHaveLength(2);
    expect(secured).toContain(logicalId(stack.buckets.raw));
  });
});

describe("least privilege", () => {
  it("lets fetch put objects into the raw bucket", () => {
    const put = statementsOf("fetch").find((s) => actions(s).includes("s3:PutObject"));
    expect(put).toBeDefined();
    expect(put!.Resource).toEqual({
      "Fn::Join": ["", [{ "Fn::GetAtt": [logicalId(stack.buckets.raw), "Arn"] }, "/*"]],
    });
  });

  it("lets the archive read, put and delete objects under dataset/ only", () => {
    const onArchive = {
      "Fn::Join": ["", [{ "Fn::GetAtt": [logicalId(stack.buckets.raw), "Arn"] }, "/dataset/*"]],
    };
    const s3 = statementsOf("archive").filter((s) => actions(s).some((a) => a.startsWith("s3:")));
    for (const action of ["s3:PutObject", "s3:DeleteObject*", "s3:GetObject*"]) {
      const st = s3.find((s) => actions(s).includes(action));
      expect(st, action).toBeDefined();
      const resources = ([] as unknown[]).concat(st!.Resource);
      expect(resources.filter((r) => JSON.stringify(r).includes("/*"))).toEqual([onArchive]);
    }
  });

  it("lets fetch send to its own dead-letter queue (it parks the URLs it gives up on) and to no other; to dedup, and to its own queue (a page come before its slot is sent again)", () => {
    const send = statementsOf("fetch").filter((s) => actions(s).includes("sqs:SendMessage"));
    const targets = new Set(send.flatMap((s) => [...refs(s.Resource)]));
    expect(targets).toEqual(
      new Set([
        logicalId(stack.queues.dedup),
        logicalId(stack.queues.fetch),
        logicalId(stack.deadLetterQueues.fetch),
      ]),
    );
    for (const name of functionNames.filter((f) => f !== "fetch")) {
      const theirs = statementsOf(name).flatMap((s) => [...refs(s.Resource)]);
      for (const q of queueNames) expect(theirs).not.toContain(logicalId(stack.deadLetterQueues[q]));
    }
  });

  it("gives discover no S3 access at all", () => {
    const s3 = statementsOf("discover")
      .flatMap(actions)
      .filter((a) => a.startsWith("s3:"));
    expect(s3).toEqual([]);
  });

  it.each(functionNames)(
    "%s: touches only its log group, trigger queue and declared resources",
    (name: FunctionName) => {
      const { access, trigger } = topology.functions[name];
      const fn = resources[logicalId(stack.functions[name])]!.Properties;
      const expected = new Set<string>([
        ...refs((fn.LoggingConfig as { LogGroup: unknown }).LogGroup),
        ...(Object.keys(access.tables) as TableName[]).map((t) => logicalId(stack.tables[t])),
        ...(Object.keys(access.queues) as QueueName[]).map((q) => logicalId(stack.queues[q])),
        ...(Object.keys(access.deadLetterQueues ?? {}) as QueueName[]).map((q) =>
          logicalId(stack.deadLetterQueues[q]),
        ),
        ...(Object.keys(access.buckets) as BucketName[]).map((b) => logicalId(stack.buckets[b])),
        ...(trigger.kind === "queue" ? [logicalId(stack.queues[trigger.queue])] : []),
      ]);
      const statements = statementsOf(name);
      // Pseudo parameters (AWS::Partition in an ARN built by hand) name no resource.
      const named = statements.flatMap((s) => [...refs(s.Resource)]).filter((r) => !r.startsWith("AWS::"));
      expect(new Set(named)).toEqual(expected);
      // The only unscoped statement is X-Ray's, which has no resource-level permissions.
      const unscoped = statements.filter((s) => s.Resource === "*").flatMap(actions);
      expect(unscoped.every((a) => a.startsWith("xray:"))).toBe(true);
      for (const s of statements) expect(actions(s).some((a) => a === "*" || a.endsWith(":*"))).toBe(false);
    },
  );

  it("attaches no managed policies to the function roles", () => {
    for (const name of functionNames) {
      const role = resources[logicalId(stack.functions[name].role!)]!.Properties;
      expect(role.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe("stack", () => {
  it("outputs table names, queue URLs and the bucket name", () => {
    const outputs = Object.keys(template.toJSON().Outputs as object);
    for (const t of tableNames) expect(outputs).toContain(`${t[0]!.toUpperCase()}${t.slice(1)}TableName`);
    for (const q of queueNames) expect(outputs).toContain(`${q[0]!.toUpperCase()}${q.slice(1)}QueueUrl`);
    expect(outputs).toContain("RawBucketName");
    expect(outputs).toEqual(expect.arrayContaining(["DatasetDatabaseName", "DatasetWorkGroupName"]));
  });

  it("is environment-agnostic", () => {
    expect(Stack.of(stack).environment).toBe("aws://unknown-account/unknown-region");
    const text = JSON.stringify(template.toJSON());
    expect(text).not.toMatch(/arn:aws[a-z-]*:[a-z0-9-]*:[a-z0-9-]*:\d{12}:/);
    expect(text).not.toMatch(/"(us|eu|ap|sa|ca|me|af|il|mx)-[a-z]+-\d"/);
  });

  it("passes cdk-nag AwsSolutions with no unacknowledged finding", () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(stack);
    const findings = report.violations.map(
      (v) => `${v.severity} ${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(", ")}`,
    );
    expect(findings).toEqual([]);
  });

  it("has no CDK errors or warnings", () => {
    const annotations = Annotations.fromStack(stack);
    expect(annotations.findError("*", Match.anyValue())).toEqual([]);
    expect(annotations.findWarning("*", Match.anyValue())).toEqual([]);
  });

  it("warns at synth when the deployment crawls with the default User-Agent", () => {
    const other = new App({ outdir: mkdtempSync(path.join(tmpdir(), "storytrail-cdk-")) });
    try {
      const bare = new StorytrailStack(other, "StorytrailDefaults", {
        projectRoot: repoRoot,
        settings: deploySettings({}),
      });
      const warnings = Annotations.fromStack(bare).findWarning(
        "*",
        Match.stringLikeRegexp("STORYTRAIL_USER_AGENT"),
      );
      expect(warnings).toHaveLength(1);
    } finally {
      rmSync(other.outdir, { recursive: true, force: true });
    }
  });
});

describe("operations", () => {
  const alarms = () => ofType("AWS::CloudWatch::Alarm");
  const topicId = () => logicalId(stack.alarms.topic);

  it("gives every alarm the alarm topic as its alarm and OK action", () => {
    expect(alarms().length).toBe(stack.alarms.alarms.length);
    expect(alarms().length).toBeGreaterThanOrEqual(queueNames.length * 2 + functionNames.length * 2 + 1);
    for (const [id, alarm] of alarms()) {
      expect([...refs(alarm.Properties.AlarmActions)], id).toEqual([topicId()]);
      expect([...refs(alarm.Properties.OKActions)], id).toEqual([topicId()]);
    }
  });

  it("subscribes the deploy settings' e-mail addresses and HTTPS endpoints, on an encrypted topic", () => {
    for (const email of OPS.alarm_emails)
      template.hasResourceProperties("AWS::SNS::Subscription", { Protocol: "email", Endpoint: email });
    template.hasResourceProperties("AWS::SNS::Subscription", {
      Protocol: "https",
      Endpoint: OPS.alarm_https_endpoints[0],
    });
    const topic = resources[topicId()]!.Properties;
    expect(topic.KmsMasterKeyId).toBeDefined();
    template.hasOutput("AlarmTopicArn", { Value: { Ref: topicId() } });
  });

  it.each(functionNames)("%s: alarms when the function is throttled", (name: FunctionName) => {
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "Throttles",
      Namespace: "AWS/Lambda",
      Threshold: 0,
      Dimensions: [{ Name: "FunctionName", Value: { Ref: logicalId(stack.functions[name]) } }],
    });
  });

  it.each(queueNames)(
    "%s: alarms when its oldest message waits past the topology's limit",
    (name: QueueName) => {
      template.hasResourceProperties("AWS::CloudWatch::Alarm", {
        MetricName: "ApproximateAgeOfOldestMessage",
        Namespace: "AWS/SQS",
        Threshold: topology.queues[name].alarmAgeSeconds,
        Dimensions: [
          { Name: "QueueName", Value: { "Fn::GetAtt": [logicalId(stack.queues[name]), "QueueName"] } },
        ],
      });
    },
  );

  it("watches only custom metrics that shared/config/metrics.ts declares for the function emitting them", () => {
    const custom = alarms().filter(([, a]) => a.Properties.Namespace === METRICS_NAMESPACE);
    expect(custom.length).toBeGreaterThan(0);
    for (const [id, alarm] of custom) {
      expect(Object.values(qualityMetrics), id).toContain(alarm.Properties.MetricName);
      expect(alarm.Properties.Dimensions, id).toEqual([{ Name: "service", Value: metricService.quality }]);
    }
  });

  it("has a dashboard with every stage, queue, DLQ, function and the per-publisher quality", () => {
    const [[, dashboard]] = ofType("AWS::CloudWatch::Dashboard") as [[string, Resource]];
    const body = JSON.stringify(stack.resolve(dashboard.Properties.DashboardBody));
    for (const name of queueNames) {
      expect(body).toContain(logicalId(stack.queues[name]));
      expect(body).toContain(logicalId(stack.deadLetterQueues[name]));
    }
    for (const name of functionNames) expect(body).toContain(logicalId(stack.functions[name]));
    for (const metrics of [dispatchMetrics, discoverMetrics, fetchMetrics, dedupMetrics, qualityMetrics])
      for (const metric of Object.values(metrics)) expect(body).toContain(metric);
    // Per publisher from the logs (the source a property of the EMF documents), never a metric dimension.
    expect(body).toContain("Worst 20 publishers");
    expect(body).not.toMatch(/SEARCH\([^)]*source_id/);
    expect(body).toContain("ApproximateAgeOfOldestMessage");
  });

  it("has a runbook entry in docs/operations.md for every alarm", () => {
    const runbook = readFileSync(path.join(repoRoot, "docs/operations.md"), "utf8");
    for (const alarm of stack.alarms.alarms) {
      expect(runbook, `runbook misses ${alarm.node.id}`).toContain(runbookName(alarm.node.id));
    }
  });
});

/** The runbook names alarms without the per-resource prefix: `<Queue>DeadLetterAlarm` → `DeadLetterAlarm`. */
function runbookName(id: string): string {
  const generic = ["DeadLetterAlarm", "QueueAgeAlarm", "ErrorsAlarm", "ThrottlesAlarm"].find((g) =>
    id.endsWith(g),
  );
  return generic ?? id;
}
