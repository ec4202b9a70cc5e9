/**
 * The deployed archive run's synth: the daily schedule starts the state machine (not the function),
 * which plans each due day, writes its shards in a Map, commits, marks in a Map and finishes, with a
 * Catch that releases the day's lease; the scheduler may start only this state machine; cdk-nag
 * clean. Synthesized without bundling (stack.test.ts bundles and checks every function once).
 */
import { App, type CfnElement } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import type { IConstruct } from "constructs";
import { describe, expect, it } from "vitest";
import { deploySettings } from "../../infra/deploy-settings";
import { StorytrailStack } from "../../infra/stack";
import { topology } from "../../infra/topology";
import { ARCHIVE_RUN_SECONDS } from "../../shared/archive/archive-steps";

const OPS = { alarm_emails: ["oncall@ops.example"], STORYTRAIL_USER_AGENT: "bot/1 (ops@ops.example)" };

function synth(raw: Record<string, unknown> = {}) {
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  const stack = new StorytrailStack(app, "ArchiveStepsTest", {
    settings: deploySettings({ ...OPS, ...raw }),
  });
  return { stack, template: Template.fromStack(stack) };
}

const logicalId = (stack: StorytrailStack, c: IConstruct) =>
  stack.resolve((c.node.defaultChild as CfnElement).logicalId) as string;

type State = Record<string, unknown> & {
  Type: string;
  Next?: string;
  Catch?: { ErrorEquals: string[]; Next: string; ResultPath?: string }[];
  ItemProcessor?: { StartAt: string; States: Record<string, State> };
  Parameters?: Record<string, unknown>;
};

/** The archive state machine's definition, with CloudFormation tokens in it replaced by their logical ids. */
function definition(stack: StorytrailStack, template: Template) {
  const sm = template.toJSON().Resources[logicalId(stack, stack.steps.archive!.stateMachine)];
  const parts = (sm.Properties.DefinitionString as { "Fn::Join": [string, unknown[]] })["Fn::Join"][1];
  const text = parts
    .map((p) => (typeof p === "string" ? p : `<${JSON.stringify(p).replace(/"/g, "'")}>`))
    .join("");
  return JSON.parse(text) as { StartAt: string; States: Record<string, State>; TimeoutSeconds: number };
}

const nagFindings = (stack: StorytrailStack) =>
  new AwsSolutionsChecks(undefined, { verbose: true })
    .validateScope(stack)
    .violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(", ")}`);

describe("archive state machine", () => {
  const { stack, template } = synth();
  const def = definition(stack, template);
  const steps = topology.functions.archive.trigger;

  it("is what the daily schedule starts, with the run's timeout (the day's lease)", () => {
    const schedules = Object.values(template.findResources("AWS::Scheduler::Schedule")).filter((s) =>
      JSON.stringify(s.Properties.Target.Arn).includes(logicalId(stack, stack.steps.archive!.stateMachine)),
    );
    expect(schedules.map((s) => s.Properties.ScheduleExpression)).toEqual(["cron(30 1 * * ? *)"]);
    expect(JSON.stringify(schedules[0]?.Properties.Target.Arn)).not.toContain(
      logicalId(stack, stack.functions.archive),
    );
    expect(def.TimeoutSeconds).toBe(ARCHIVE_RUN_SECONDS);
    expect(steps.kind === "schedule" && steps.steps?.timeoutSeconds).toBe(ARCHIVE_RUN_SECONDS);
  });

  it("plans each due day, one at a time, then Maps the shards' writes, commits, Maps the marks and finishes", () => {
    const start = def.States[def.StartAt]!;
    expect(start.Parameters?.step).toBe("days");
    const eachDay = def.States[start.Next!]!;
    expect(eachDay).toMatchObject({ Type: "Map", ItemsPath: "$.days", MaxConcurrency: 1 });
    const { StartAt, States } = eachDay.ItemProcessor!;
    // payloadResponseOnly: the task calls the function itself, its Parameters are the event.
    const payload = (name: string) => States[name]?.Parameters;
    expect(payload(StartAt)).toEqual({ step: "plan", "day.$": "$.day" });
    const busy = States[States[StartAt]!.Next!]!;
    expect(busy.Type).toBe("Choice");
    const concurrency = steps.kind === "schedule" ? steps.steps?.shardConcurrency : 0;
    const writes = States[busy.Default as string]!;
    expect(writes).toMatchObject({ Type: "Map", ItemsPath: "$.plan.shards", MaxConcurrency: concurrency });
    const write = writes.ItemProcessor!.States[writes.ItemProcessor!.StartAt]!;
    expect(write.Parameters?.step).toBe("write");
    expect(write.Retry).toEqual([
      expect.objectContaining({
        ErrorEquals: [
          "Lambda.ClientExecutionTimeoutException",
          "Lambda.ServiceException",
          "Lambda.AWSLambdaException",
          "Lambda.SdkClientException",
        ],
      }),
      expect.objectContaining({ ErrorEquals: ["States.ALL"], MaxAttempts: 2 }),
    ]);
    expect(payload(writes.Next!)).toMatchObject({ step: "commit", "shards.$": "$.plan.shards" });
    const marks = States[States[writes.Next!]!.Next!]!;
    expect(marks).toMatchObject({ Type: "Map", ItemsPath: "$.plan.shards", MaxConcurrency: concurrency });
    expect(payload(marks.Next!)).toMatchObject({ step: "finish" });
  });

  it("marks a shard again from where a step stopped until it says it is done", () => {
    const eachDay = def.States[def.States[def.StartAt]!.Next!]!;
    const marks = Object.values(eachDay.ItemProcessor!.States).find(
      (s) =>
        s.ItemProcessor?.States &&
        Object.values(s.ItemProcessor.States).some((x) => x.Parameters?.step === "mark"),
    )!;
    // Each shard's first step starts at its ledgers' first lines.
    expect(marks.ItemSelector).toMatchObject({ from: { articles: 0, stories: 0 } });
    const { StartAt, States } = marks.ItemProcessor!;
    const mark = States[StartAt]!;
    expect(mark.Parameters).toMatchObject({ step: "mark", "from.$": "$.from" });
    expect(mark.ResultPath).toBe("$.mark");
    const choice = States[mark.Next!]!;
    expect(choice.Type).toBe("Choice");
    expect(choice.Choices).toEqual([expect.objectContaining({ Variable: "$.mark.next", IsNull: true })]);
    expect(States[(choice.Choices as { Next: string }[])[0]!.Next]!.Type).toBe("Succeed");
    const again = States[choice.Default as string]!;
    expect(again).toMatchObject({ Type: "Pass", Next: StartAt });
    expect(again.Parameters).toMatchObject({ "from.$": "$.mark.next", "shard.$": "$.shard" });
  });

  it("catches a failed write, commit, mark or finish: release the day's lease, then fail the run", () => {
    const { States } = def.States[def.States[def.StartAt]!.Next!]!.ItemProcessor!;
    const caught = Object.entries(States).filter(([, s]) => s.Catch);
    expect(caught.map(([name]) => name).sort()).toEqual(["Commit", "Finish", "Marks", "Writes"]);
    for (const [, s] of caught)
      expect(s.Catch).toEqual([{ ErrorEquals: ["States.ALL"], Next: "Release", ResultPath: "$.error" }]);
    expect(States.Release?.Parameters).toEqual({
      step: "release",
      "day.$": "$.plan.day",
      "runId.$": "$.plan.runId",
    });
    expect(States[States.Release!.Next!]?.Type).toBe("Fail");
  });

  it("lets the scheduler start this state machine only, and alarms when a run fails", () => {
    const smId = logicalId(stack, stack.steps.archive!.stateMachine);
    const schedulerPolicies = Object.values(template.findResources("AWS::IAM::Policy")).filter((p) =>
      JSON.stringify(p.Properties.Roles).includes("ArchiveSchedulerRole"),
    );
    const statements = schedulerPolicies.flatMap(
      (p) =>
        (p.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement,
    );
    expect(statements).toEqual([
      expect.objectContaining({ Action: "states:StartExecution", Resource: { Ref: smId } }),
    ]);
    const alarms = Object.values(template.findResources("AWS::CloudWatch::Alarm")).filter((a) =>
      JSON.stringify(a.Properties.Dimensions ?? []).includes(smId),
    );
    expect(alarms.map((a) => a.Properties.MetricName)).toEqual(["ExecutionsFailed"]);
  });

  it("is nag-clean, with tracing off and on", () => {
    expect(nagFindings(stack)).toEqual([]);
    expect(nagFindings(synth({ tracing: true }).stack)).toEqual([]);
  });
});
