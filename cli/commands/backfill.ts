/**
 * `storytrail backfill`: starts the deployed backfill (Step Functions Distributed Map, infra/backfill.ts)
 * over a CC-NEWS month or a list of WARC object keys, and reports a run's progress. Locally,
 * `storytrail import --warc` does the same work on one machine.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { BackfillProgress } from "../../shared/aws/backfill-runs";
import { CC_NEWS_PREFIX, COMMONCRAWL_BUCKET } from "../../shared/backfill/cc-news";
import {
  type BackfillRunInput,
  backfillInputs,
  ccNewsPathsKey,
  keysOutside,
  PathsListError,
  parsePathsList,
} from "../../shared/backfill/paths-list";
import { InputError } from "../input-error";

const STATE_MACHINE_ENV = "STORYTRAIL_BACKFILL_STATE_MACHINE";
/** How often `--wait` asks for progress: a CC-NEWS file takes ~15-45 minutes. */
const POLL_MS = 30_000;

export interface BackfillCliOptions {
  month?: string;
  paths?: string;
  status?: string[];
  bucket: string;
  prefix: string;
  stateMachine?: string;
  limit?: string;
  region?: string;
  s3Endpoint?: string;
  dryRun?: boolean;
  wait?: boolean;
}

/** Where the run's paths list comes from, as told by the options. */
export function pathsSource(opts: BackfillCliOptions): { file: string } | { bucket: string; key: string } {
  if (Boolean(opts.month) === Boolean(opts.paths))
    throw new InputError("give exactly one of --month YYYY-MM or --paths FILE (or --status ARN…)");
  try {
    return opts.month
      ? { bucket: COMMONCRAWL_BUCKET, key: ccNewsPathsKey(opts.month) }
      : { file: opts.paths! };
  } catch (err) {
    if (err instanceof PathsListError) throw new InputError(err.message);
    throw err;
  }
}

/** The state machine inputs for a paths list's bytes. */
export function planInputs(bytes: Uint8Array, origin: string, opts: BackfillCliOptions): BackfillRunInput[] {
  try {
    let keys = parsePathsList(bytes, origin);
    if (opts.limit !== undefined) {
      const n = Number(opts.limit);
      if (!(Number.isInteger(n) && n > 0))
        throw new InputError(`--limit must be a positive whole number (got ${opts.limit})`);
      keys = keys.slice(0, n);
    }
    const outside = keysOutside(keys, opts.prefix);
    if (outside.length > 0)
      throw new InputError(
        `${outside.length} key(s) outside --prefix ${JSON.stringify(opts.prefix)} (the deployed function may read only that prefix), e.g. ${outside[0]}`,
      );
    return backfillInputs(opts.bucket, keys);
  } catch (err) {
    if (err instanceof PathsListError) throw new InputError(err.message);
    throw err;
  }
}

function progressLine(p: BackfillProgress): string {
  const f = p.files;
  const files = f
    ? `${f.succeeded}/${f.total} files done, ${f.running} running, ${f.pending} pending, ${f.failed + f.timed_out + f.aborted} failed`
    : "map run not started yet";
  return `${p.execution_arn}: ${p.status}, ${files}`;
}

export function registerBackfill(program: Command): void {
  program
    .command("backfill")
    .description(
      "Start the deployed backfill (Step Functions Distributed Map, one Lambda per WARC file) over a CC-NEWS month or a list of WARC keys, or report a run's progress.",
    )
    .option(
      "--month <YYYY-MM>",
      `a CC-NEWS month: s3://${COMMONCRAWL_BUCKET}/${CC_NEWS_PREFIX}YYYY/MM/warc.paths.gz`,
    )
    .option("--paths <file>", "a paths list: one object key per line, plain or .gz (CC-NEWS's own format)")
    .option("--status <execution-arn...>", "report these runs' progress instead of starting one")
    .option("--bucket <name>", "the bucket holding the WARC files", COMMONCRAWL_BUCKET)
    .option(
      "--prefix <prefix>",
      "the deployment's backfill.prefix: keys outside it are refused (its function may not read them)",
      CC_NEWS_PREFIX,
    )
    .option("--state-machine <arn>", `the stack's BackfillStateMachineArn output (or ${STATE_MACHINE_ENV})`)
    .option("--limit <n>", "only the first n files (a trial run)")
    .option("--region <region>", "AWS region of the stack")
    .option("--s3-endpoint <url>", "read the paths list from an S3 endpoint other than AWS's (an emulator)")
    .option("--dry-run", "print the execution input(s) it would send, one JSON object a line; start nothing")
    .option("--wait", "report progress every 30 s until the runs end")
    .action(async (opts: BackfillCliOptions) => {
      await runBackfill(opts);
    });
}

async function readPaths(opts: BackfillCliOptions): Promise<{ bytes: Uint8Array; origin: string }> {
  const source = pathsSource(opts);
  if ("file" in source) {
    try {
      return { bytes: readFileSync(resolve(source.file)), origin: source.file };
    } catch (err) {
      throw new InputError(`--paths ${source.file}: ${(err as Error).message}`);
    }
  }
  const [{ loadS3Client }, { s3ObjectBytes }] = await Promise.all([
    import("../../shared/aws/s3-client"),
    import("../../shared/aws/s3-object-bytes"),
  ]);
  const s3 = await loadS3Client(opts.s3Endpoint ? { s3: opts.s3Endpoint } : {}, opts.region ?? "us-east-1");
  const origin = `s3://${source.bucket}/${source.key}`;
  try {
    const parts: Uint8Array[] = [];
    for await (const chunk of s3ObjectBytes(s3, source)(0)) parts.push(chunk);
    return { bytes: Buffer.concat(parts), origin };
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === "NoSuchKey")
      throw new InputError(`${origin}: no such paths list (is ${opts.month} published yet?)`);
    throw err;
  } finally {
    s3.destroy();
  }
}

async function runBackfill(opts: BackfillCliOptions): Promise<void> {
  const out = (s: string) => process.stdout.write(`${s}\n`);
  let executions = opts.status ?? [];
  if (executions.length === 0) {
    const { bytes, origin } = await readPaths(opts);
    const inputs = planInputs(bytes, origin, opts);
    const files = inputs.reduce((n, i) => n + i.keys.length, 0);
    process.stderr.write(`${origin}: ${files} WARC files in ${inputs.length} run(s)\n`);
    if (opts.dryRun) {
      for (const input of inputs) out(JSON.stringify(input));
      return;
    }
    const arn = opts.stateMachine ?? process.env[STATE_MACHINE_ENV];
    if (!arn)
      throw new InputError(
        `--state-machine ARN (the stack's BackfillStateMachineArn output) or ${STATE_MACHINE_ENV} is needed to start a run`,
      );
    const { sfn, startBackfill } = await sfnClient(opts);
    try {
      const label = (opts.month ?? "paths").replace(/[^A-Za-z0-9-]/g, "-");
      const stamp = new Date()
        .toISOString()
        .replace(/[-:.TZ]/g, "")
        .slice(0, 14);
      executions = [];
      for (const [i, input] of inputs.entries()) {
        executions.push(await startBackfill(sfn, arn, input, `backfill-${label}-${stamp}-${i}`));
        out(`started ${executions.at(-1)} (${input.keys.length} files)`);
      }
    } finally {
      sfn.destroy();
    }
    if (!opts.wait) {
      out(`progress: storytrail backfill --status ${executions.join(" ")}`);
      return;
    }
  }
  const { sfn, backfillProgress } = await sfnClient(opts);
  try {
    for (;;) {
      const progress = await Promise.all(executions.map((e) => backfillProgress(sfn, e)));
      for (const p of progress) out(progressLine(p));
      const running = progress.some((p) => p.status === "RUNNING");
      if (progress.some((p) => p.status !== "RUNNING" && p.status !== "SUCCEEDED")) process.exitCode = 1;
      if (!opts.wait || !running) return;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    sfn.destroy();
  }
}

async function sfnClient(opts: BackfillCliOptions) {
  const [{ SFNClient }, { startBackfill, backfillProgress }] = await Promise.all([
    import("@aws-sdk/client-sfn"),
    import("../../shared/aws/backfill-runs"),
  ]);
  return { sfn: new SFNClient(opts.region ? { region: opts.region } : {}), startBackfill, backfillProgress };
}
