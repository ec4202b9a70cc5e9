/**
 * The deployed backfill's synth: the Distributed Map (settings → MaxConcurrency, failure tolerance), its
 * resume loop, the function's read access (the configured bucket/prefix only), the off switch, and
 * cdk-nag. Synthesized without bundling (stack.test.ts bundles and checks every function once).
 */
import { App, type CfnElement } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import type { IConstruct } from "constructs";
import { describe, expect, it } from "vitest";
import { deploySettings } from "../../infra/deploy-settings";
import { StorytrailStack } from "../../infra/stack";

const OPS = { alarm_emails: ["oncall@ops.example"], STORYTRAIL_USER_AGENT: "bot/1 (ops@ops.example)" };

function synth(raw: Record<string, unknown>) {
  // No bundling: the functions' code is not what these tests look at.
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  const stack = new StorytrailStack(app, "BackfillTest", { settings: deploySettings({ ...OPS, ...raw }) });
  return { stack, template: Template.fromStack(stack) };
}

type Statement = { Action: string | string[]; Resource: unknown };
const logicalId = (stack: StorytrailStack, c: IConstruct) =>
  stack.resolve((c.node.defaultChild as CfnElement).logicalId) as string;

/** The backfill state machine's definition (the archive has its own), with CloudFormation tokens in it
 * replaced by their logical ids. */
function definition(stack: StorytrailStack, template: Template): Record<string, unknown> {
  const sm = template.findResources("AWS::StepFunctions::StateMachine")[
    logicalId(stack, stack.backfill!.stateMachine)
  ];
  const parts = (sm!.Properties.DefinitionString as { "Fn::Join": [string, unknown[]] })["Fn::Join"][1];
  const text = parts
    .map((p) => (typeof p === "string" ? p : `<${JSON.stringify(p).replace(/"/g, "'")}>`))
    .join("");
  return JSON.parse(text) as Record<string, unknown>;
}

function s3Statements(stack: StorytrailStack, template: Template): Statement[] {
  const role = logicalId(stack, stack.functions.backfill.role!);
  return Object.values(template.findResources("AWS::IAM::Policy"))
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(role))
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
    .filter((s) => [s.Action].flat().some((a) => a.startsWith("s3:")));
}

const nagFindings = (stack: StorytrailStack) =>
  new AwsSolutionsChecks(undefined, { verbose: true })
    .validateScope(stack)
    .violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(", ")}`);

describe("backfill stack", () => {
  const defaults = synth({});

  it("maps a list of WARC keys to one looping child execution per file, from the default settings", () => {
    const { stack, template } = defaults;
    const def = definition(stack, template) as {
      StartAt: string;
      States: Record<string, Record<string, unknown>>;
    };
    const map = def.States[def.StartAt]!;
    expect(map).toMatchObject({
      Type: "Map",
      ItemsPath: "$.keys",
      ItemSelector: { "bucket.$": "$.bucket", "key.$": "$$.Map.Item.Value" },
      MaxConcurrency: 5,
      ToleratedFailurePercentage: 5,
      ResultPath: null,
      ItemProcessor: { ProcessorConfig: { Mode: "DISTRIBUTED", ExecutionType: "STANDARD" } },
    });
    type State = { Next?: string; Retry?: unknown[]; Resource?: unknown };
    const { StartAt, States } = map.ItemProcessor as { StartAt: string; States: Record<string, State> };
    const invoke = States[StartAt]!;
    expect(invoke.Next).toBe("FileDone");
    expect(invoke.Retry).toContainEqual(
      expect.objectContaining({ ErrorEquals: ["States.ALL"], MaxAttempts: 3, BackoffRate: 3 }),
    );
    expect(JSON.stringify(invoke.Resource)).toContain(logicalId(stack, stack.functions.backfill));
    // Not done: back to the same invocation with the returned checkpoint as input.
    expect(States.FileDone).toMatchObject({
      Type: "Choice",
      Choices: [{ Variable: "$.done", BooleanEquals: true, Next: "FileImported" }],
      Default: StartAt,
    });
    expect(Object.keys(template.toJSON().Outputs as object)).toContain("BackfillStateMachineArn");
    template.hasResourceProperties("AWS::StepFunctions::StateMachine", {
      LoggingConfiguration: { Level: "ALL", IncludeExecutionData: false },
    });
  });

  it("lets the function read only the configured bucket's prefix, and nothing else in S3 but raw writes", () => {
    const { stack, template } = defaults;
    const reads = s3Statements(stack, template).filter((s) =>
      [s.Action].flat().some((a) => a.startsWith("s3:Get") || a.startsWith("s3:List")),
    );
    expect(reads).toEqual([
      {
        Action: "s3:GetObject",
        Effect: "Allow",
        Resource: {
          "Fn::Join": ["", ["arn:", { Ref: "AWS::Partition" }, ":s3:::commoncrawl/crawl-data/CC-NEWS/*"]],
        },
      },
    ]);
  });

  it("takes bucket, prefix, concurrency and failure tolerance from the deploy settings; nag-clean with tracing", () => {
    const { stack, template } = synth({
      tracing: true,
      backfill: {
        bucket: "my-archive.example",
        prefix: "warc/2024/",
        max_concurrency: 40,
        tolerated_failure_percentage: 0,
      },
    });
    const def = definition(stack, template) as {
      StartAt: string;
      States: Record<string, Record<string, unknown>>;
    };
    const map = def.States[def.StartAt]!;
    expect(map.MaxConcurrency).toBe(40);
    // CDK leaves a 0 out, and Step Functions' default tolerance is 0.
    expect(map.ToleratedFailurePercentage ?? 0).toBe(0);
    expect(JSON.stringify(s3Statements(stack, template))).toContain(":s3:::my-archive.example/warc/2024/*");
    template.hasResourceProperties("AWS::StepFunctions::StateMachine", {
      TracingConfiguration: { Enabled: true },
    });
    expect(nagFindings(stack)).toEqual([]);
  });

  it("is left out entirely when the deploy settings turn it off", () => {
    const { stack, template } = synth({ backfill: { enabled: false } });
    // Only the archive's state machine is left.
    expect(Object.keys(template.findResources("AWS::StepFunctions::StateMachine"))).toEqual([
      logicalId(stack, stack.steps.archive!.stateMachine),
    ]);
    expect(stack.functions.backfill).toBeUndefined();
    expect(stack.backfill).toBeUndefined();
    expect(Object.keys(template.toJSON().Outputs as object)).not.toContain("BackfillStateMachineArn");
    expect(nagFindings(stack)).toEqual([]);
  });

  it("refuses backfill settings that could not work", () => {
    expect(() => deploySettings({ backfill: { max_concurrency: 0 } })).toThrow(/max_concurrency/);
    expect(() => deploySettings({ backfill: { bucket: "Not_A_Bucket" } })).toThrow(/bucket/);
    expect(() => deploySettings({ backfill: { tolerated_failure_percentage: 101 } })).toThrow(
      /tolerated_failure_percentage/,
    );
  });
});
