/**
 * The archive writer at a day's size (`npm run bench -- --only archive`): a synthetic day of 1 M
 * articles (100,000 with --quick) through shared/archive/ into a local folder, in a fresh process
 * (bench/archive-child.ts): time, peak RSS, Parquet bytes per million articles, and the day of 5 M
 * carried from it (docs/scale.md, "Archive").
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

export async function benchArchive(articles: number): Promise<ArchiveBench> {
  const dir = mkdtempSync(path.join(tmpdir(), "storytrail-archive-bench-"));
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "archive-child.ts"), String(articles), dir],
      { maxBuffer: 1 << 20 },
    );
    const r = JSON.parse(stdout) as ChildResult;
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
