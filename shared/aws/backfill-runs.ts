/** Starting the deployed backfill's state machine and reading a run's progress (Step Functions). */
import {
  DescribeExecutionCommand,
  DescribeMapRunCommand,
  ListMapRunsCommand,
  type SFNClient,
  StartExecutionCommand,
} from "@aws-sdk/client-sfn";
import type { BackfillRunInput } from "../backfill/paths-list";

export interface BackfillProgress {
  readonly execution_arn: string;
  /** RUNNING, SUCCEEDED, FAILED, TIMED_OUT, ABORTED, PENDING_REDRIVE. */
  readonly status: string;
  /** WARC files by state, from the run's Distributed Map (absent until the map run has started). */
  readonly files: {
    readonly total: number;
    readonly pending: number;
    readonly running: number;
    readonly succeeded: number;
    readonly failed: number;
    readonly timed_out: number;
    readonly aborted: number;
  } | null;
  readonly map_run_arn: string | null;
}

export async function startBackfill(
  sfn: SFNClient,
  stateMachineArn: string,
  input: BackfillRunInput,
  name: string,
): Promise<string> {
  const out = await sfn.send(
    new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }),
  );
  if (!out.executionArn) throw new Error("StartExecution returned no execution ARN");
  return out.executionArn;
}

export async function backfillProgress(sfn: SFNClient, executionArn: string): Promise<BackfillProgress> {
  const exec = await sfn.send(new DescribeExecutionCommand({ executionArn }));
  const runs = await sfn.send(new ListMapRunsCommand({ executionArn }));
  const mapRunArn = runs.mapRuns?.[0]?.mapRunArn ?? null;
  let files: BackfillProgress["files"] = null;
  if (mapRunArn) {
    const run = await sfn.send(new DescribeMapRunCommand({ mapRunArn }));
    const c = run.itemCounts;
    if (c)
      files = {
        total: c.total ?? 0,
        pending: c.pending ?? 0,
        running: c.running ?? 0,
        succeeded: c.succeeded ?? 0,
        failed: c.failed ?? 0,
        timed_out: c.timedOut ?? 0,
        aborted: c.aborted ?? 0,
      };
  }
  return { execution_arn: executionArn, status: exec.status ?? "UNKNOWN", files, map_run_arn: mapRunArn };
}
