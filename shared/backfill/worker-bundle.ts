/**
 * The extraction worker as one script, bundled by esbuild when a pool starts. A worker thread does not
 * inherit the main thread's module hooks: loaded from source, each registered tsx and compiled ~200
 * modules through it, 900 ms of CPU a worker before its first page; from this bundle, 220 ms (the
 * bundle takes ~40 ms of this process's CPU and ~0.25 s of esbuild's; measured on the 2-core machine).
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ENTRY = fileURLToPath(new URL("./extraction-worker.ts", import.meta.url));

/** The worker's code with its dependencies, as a CommonJS script a Worker evaluates (`eval: true`). */
export async function extractionWorkerScript(): Promise<string> {
  const out = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    platform: "node",
    format: "cjs",
    target: "node20",
    // UTF-8 output: the language models' trigrams, escaped as \uXXXX, would triple in size (infra/bundling.ts).
    charset: "utf8",
    logLevel: "error",
  });
  const script = out.outputFiles[0];
  if (!script) throw new Error(`esbuild produced no bundle for ${ENTRY}`);
  return script.text;
}
