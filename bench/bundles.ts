/**
 * Lambda bundles: each lambdas/*.ts bundled with esbuild with the stack's own settings
 * (infra/bundling.ts: the DynamoDB and SQS clients bundled, S3 and the rarely used credential
 * providers left to the runtime), then its size and its cold-start init: importing it in a fresh Node
 * process, median of 5. External SDK packages the bundle imports at start are loaded and timed too.
 * The CPU time of the import is recorded beside the wall time: on a shared machine it moves less.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { esbuildOptions } from "../infra/bundling";

const ROOT = path.resolve(import.meta.dirname, "..");

export interface BundleRow {
  fn: string;
  bytes: number;
  initMsMedian: number;
  initMsAll: number[];
  /** CPU time (user + system) of the same imports: less sensitive to other load than wall time. */
  initCpuMsMedian: number;
  /** The @aws-sdk packages the bundle imports at load (others load on first use, if ever). */
  sdk: string[];
  /** Largest packages in the bundle (minified bytes), to see what to trim. */
  top: { pkg: string; bytes: number }[];
}

function packageOf(file: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return m ? m[1]! : file.split("/").slice(0, 2).join("/");
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
}

function initMs(file: string): { wall: number; cpu: number } {
  const script = `const t=performance.now(),c=process.cpuUsage();await import(${JSON.stringify(file)});const u=process.cpuUsage(c);process.stdout.write(JSON.stringify({wall:performance.now()-t,cpu:(u.user+u.system)/1000}));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    env: {
      ...process.env,
      AWS_REGION: "us-east-1",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    encoding: "utf8",
  });
  return JSON.parse(out.slice(out.lastIndexOf("{"))) as { wall: number; cpu: number };
}

export async function benchBundles(runs = 5): Promise<BundleRow[]> {
  const outdir = path.join(ROOT, "out/bench/bundles");
  mkdirSync(outdir, { recursive: true });
  const rows: BundleRow[] = [];
  for (const f of readdirSync(path.join(ROOT, "lambdas"))
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    const fn = f.replace(/\.ts$/, "");
    const outfile = path.join(outdir, fn, "index.mjs");
    const result = await build({
      ...esbuildOptions(path.join(ROOT, "lambdas", f), outfile),
      metafile: true,
    });
    const byPkg = new Map<string, number>();
    const sdk = new Set<string>();
    for (const input of Object.values(result.metafile.inputs)) {
      for (const i of input.imports) {
        if (i.external && i.kind === "import-statement" && /^@(aws-sdk|smithy)\//.test(i.path))
          sdk.add(i.path);
      }
    }
    for (const out of Object.values(result.metafile.outputs)) {
      for (const [input, v] of Object.entries(out.inputs)) {
        byPkg.set(packageOf(input), (byPkg.get(packageOf(input)) ?? 0) + v.bytesInOutput);
      }
    }
    const times = Array.from({ length: runs }, () => initMs(outfile));
    rows.push({
      fn,
      bytes: statSync(outfile).size,
      initMsMedian: median(times.map((t) => t.wall)),
      initMsAll: times.map((t) => t.wall),
      initCpuMsMedian: median(times.map((t) => t.cpu)),
      sdk: [...sdk].sort(),
      top: [...byPkg]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([pkg, bytes]) => ({ pkg, bytes })),
    });
  }
  return rows;
}
