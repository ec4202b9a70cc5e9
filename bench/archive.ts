/**
 * The archive writer at a day's size (`npm run bench -- --only archive`): a synthetic day of 1 M
 * articles (100,000 with --quick) through shared/archive/ into a local folder, in a fresh process
 * (bench/archive-child.ts): time, peak RSS, Parquet bytes per million articles, and the day of 5 M
 * carried from it (docs/scale.md, "Archive"). The sharded case runs the same day's steps each in its
 * own process, as the state machine runs them in their own invocations: plan, write per shard,
 * commit, mark per shard, finish, each with its CPU seconds and peak RSS.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { topology } from "../infra/topology";

interface ChildResult {
  readonly articles: number;
  readonly stories: number;
  readonly seconds: number;
  /** CPU seconds (user + system): the function's one vCPU runs them, whatever this machine's load. */
  readonly cpuSeconds: number;
  readonly maxRssMb: number;
  readonly bytes: number;
  readonly articleBytes: number;
  readonly storyBytes: number;
  readonly codec: string;
  readonly files: number;
  readonly node: string;
}

export interface ArchiveBench extends ChildResult {
  readonly gbPerMillion: number;
  /** A day of 5 M articles, carried linearly: CPU seconds, bytes, and the marking state that grows with the day. */
  readonly fiveMillion: {
    readonly seconds: number;
    readonly gb: number;
    readonly fitsOneInvocation: boolean;
  };
  readonly functionTimeoutSeconds: number;
  readonly functionMemoryMb: number;
}

const child = async (args: readonly string[]): Promise<ChildResult> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "archive-child.ts"), ...args],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as ChildResult;
};

export interface ShardedStep extends ChildResult {
  readonly step: string;
}

export interface ShardedArchiveBench {
  readonly articles: number;
  readonly shardArticles: number;
  readonly steps: readonly ShardedStep[];
  readonly node: string;
  readonly codec: string;
}

/** The day in shards of `shardArticles`, each step in a fresh process (bench/archive-child.ts). */
export async function benchArchiveSharded(
  articles: number,
  shardArticles: number,
): Promise<ShardedArchiveBench> {
  const dir = mkdtempSync(path.join(tmpdir(), "storytrail-archive-shards-"));
  try {
    const run = async (step: string, ...args: string[]) => ({
      step: [step, ...args].join(" "),
      ...(await child([String(articles), dir, step, ...args])),
    });
    const plan = await run("plan", String(shardArticles));
    const shards = (plan as unknown as { shards: number }).shards;
    const steps: ShardedStep[] = [plan];
    for (let k = 0; k < shards; k++) steps.push(await run("write", String(k)));
    steps.push(await run("commit"));
    for (let k = 0; k < shards; k++) steps.push(await run("mark", String(k)));
    steps.push(await run("finish"));
    return { articles, shardArticles, steps, node: plan.node, codec: plan.codec };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchArchive(articles: number): Promise<ArchiveBench> {
  const dir = mkdtempSync(path.join(tmpdir(), "storytrail-archive-bench-"));
  try {
    const r = await child([String(articles), dir]);
    const perMillion = 1e6 / r.articles;
    const fiveSeconds = (r.cpuSeconds * 5e6) / r.articles;
    const { timeoutSeconds, memoryMb } = topology.functions.archive;
    return {
      ...r,
      gbPerMillion: (r.bytes * perMillion) / 1e9,
      fiveMillion: {
        seconds: fiveSeconds,
        gb: (r.bytes * 5e6) / r.articles / 1e9,
        // Carried pessimistically: all of the peak as if it grew with the day, and 20 % of the time
        // left for the table reads the synthetic source does not make.
        fitsOneInvocation: fiveSeconds < 0.8 * timeoutSeconds && (r.maxRssMb * 5e6) / r.articles < memoryMb,
      },
      functionTimeoutSeconds: timeoutSeconds,
      functionMemoryMb: memoryMb,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
