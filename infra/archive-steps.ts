/**
 * The deployed archive run: the daily schedule starts this state machine, which invokes the archive
 * function once per step (shared/archive/archive-steps.ts): `days` (yesterday and the day before, those
 * not current), then per due day, one after the other: `plan` (the day's lease for the whole run, the
 * day cut into shards of `collected_at`), an inline Map of `write` (a shard each), `commit` (the
 * stories once, the manifest), a Map of `mark`, `finish`. A failed step is caught: `release` frees the
 * day's lease and the day fails (its work area stays for the next run, which overwrites or deletes it).
 */
import { Duration } from "aws-cdk-lib";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import * as tasks from "aws-cdk-lib/aws-stepfunctions-tasks";
import { Construct } from "constructs";
import type { ArchiveStepName } from "../shared/archive/archive-steps";
import type { AlarmTopic } from "./alarm-topic";
import { loggedStateMachine } from "./logged-state-machine";
import type { StepsSpec } from "./topology";

export interface ArchiveStepsProps {
  readonly fn: lambda.IFunction;
  readonly spec: StepsSpec;
  readonly tracing: boolean;
  readonly alarms: AlarmTopic;
}

/** What each step after the plan takes from the day's state: `$.plan` is what plan returned. */
const RUN = { "day.$": "$.plan.day", "runId.$": "$.plan.runId" };

export class ArchiveSteps extends Construct {
  readonly stateMachine: sfn.StateMachine;

  constructor(scope: Construct, id: string, props: ArchiveStepsProps) {
    super(scope, id);
    const step = (
      name: string,
      step: ArchiveStepName,
      input: Record<string, string>,
      more: Partial<tasks.LambdaInvokeProps> = {},
    ) =>
      new tasks.LambdaInvoke(this, name, {
        lambdaFunction: props.fn,
        payload: sfn.TaskInput.fromObject({ step, ...input }),
        payloadResponseOnly: true,
        ...more,
      });
    // Shard steps are idempotent (a write puts the same keys again, a mark never moves an expiry
    // earlier): a failed one (a timeout, a throttle) is tried again before the day fails.
    const idempotent = (task: tasks.LambdaInvoke): tasks.LambdaInvoke => {
      task.addRetry({
        errors: [sfn.Errors.ALL],
        interval: Duration.seconds(30),
        backoffRate: 2,
        maxAttempts: 2,
      });
      return task;
    };
    const shardMap = (name: string, task: sfn.IChainable, more: Record<string, unknown> = {}) =>
      new sfn.Map(this, name, {
        itemsPath: "$.plan.shards",
        itemSelector: { ...RUN, "shard.$": "$$.Map.Item.Value", ...more },
        maxConcurrency: props.spec.shardConcurrency,
        resultPath: sfn.JsonPath.DISCARD,
      }).itemProcessor(task);

    const days = step(
      "Days",
      "days",
      {},
      { comment: "Which of yesterday and the day before are not current." },
    );
    const plan = step("Plan", "plan", { "day.$": "$.day" }, { resultPath: "$.plan" });
    const writes = shardMap(
      "Writes",
      idempotent(
        step("WriteShard", "write", { "day.$": "$.day", "runId.$": "$.runId", "shard.$": "$.shard" }),
      ),
    );
    const commit = step(
      "Commit",
      "commit",
      { ...RUN, "shards.$": "$.plan.shards" },
      { resultPath: sfn.JsonPath.DISCARD },
    );
    // A mark stops when its invocation runs short and returns where it got to (`next`), bound by the
    // table's write rate rather than the function (shared/archive/shard-mark.ts): invoked again from
    // there until `next` is null.
    const markShard = step(
      "MarkShard",
      "mark",
      { "day.$": "$.day", "runId.$": "$.runId", "shard.$": "$.shard", "from.$": "$.from" },
      { resultPath: "$.mark" },
    );
    const markAgain = new sfn.Pass(this, "MarkFromWhereItStopped", {
      parameters: { "day.$": "$.day", "runId.$": "$.runId", "shard.$": "$.shard", "from.$": "$.mark.next" },
    });
    const marked = new sfn.Choice(this, "ShardMarked")
      .when(sfn.Condition.isNull("$.mark.next"), new sfn.Succeed(this, "ShardDone"))
      .otherwise(markAgain.next(markShard));
    const marks = shardMap("Marks", idempotent(markShard).next(marked), {
      from: { articles: 0, stories: 0 },
    });
    const finish = step("Finish", "finish", { ...RUN, "was.$": "$.was" }, { resultPath: "$.outcome" });
    const release = step("Release", "release", RUN, { resultPath: sfn.JsonPath.DISCARD }).next(
      new sfn.Fail(this, "DayFailed", { errorPath: "$.error.Error", causePath: "$.error.Cause" }),
    );
    for (const s of [writes, commit, marks, finish]) s.addCatch(release, { resultPath: "$.error" });
    const busy = new sfn.Choice(this, "DayBusy")
      .when(sfn.Condition.booleanEquals("$.plan.busy", true), new sfn.Succeed(this, "LeftToItsHolder"))
      .otherwise(writes.next(commit).next(marks).next(finish));
    const eachDay = new sfn.Map(this, "EachDay", {
      itemsPath: "$.days",
      // One day at a time: a day's lease is taken by its plan, so a failed day leaves the next unheld.
      maxConcurrency: 1,
      resultPath: "$.archived",
    }).itemProcessor(plan.next(busy));

    this.stateMachine = loggedStateMachine(this, {
      comment: "storytrail archive: the collected days not current, each in shards, as Parquet",
      definition: days.next(eachDay),
      timeout: Duration.seconds(props.spec.timeoutSeconds),
      fn: props.fn,
      what: "archive",
      tracing: props.tracing,
      alarms: props.alarms,
      alarm: {
        id: "ArchiveFailedAlarm",
        description:
          "An archive run failed: a day's step failed after its retries (the day's lease was released; see the execution's failed step and the archive function's log). The next run re-checks the day.",
      },
      output: {
        id: "ArchiveStateMachineArn",
        description:
          "The daily archive run (start it by hand with {} to archive yesterday and the day before)",
      },
    });
  }
}
