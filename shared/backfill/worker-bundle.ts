/**
 * The extraction worker as one script, bundled by esbuild when a pool starts. A worker thread does not
 * inherit the main thread's module hooks: loaded from source, each registered tsx and compiled ~200
 * modules through it, 900 ms of CPU a worker before its first page; from this bundle, 220 ms (the
 * bundle takes ~40 ms of this process's CPU and ~0.25 s of esbuild's; measured on the 2-core machine).
 *
 * The bundle is kept on disk with the content hash of every file esbuild read, and used again while
 * they are unchanged: building it was 0.29 s of each import's start-up (of ~2.1 s for a 10-page WARC),
 * checking it is ~15 ms (289 files, 2 MB). A changed source, esbuild version or option builds it again;
 * a cache that cannot be read or written is passed over, never an error.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build, version as esbuildVersion } from "esbuild";

const ENTRY = fileURLToPath(new URL("./extraction-worker.ts", import.meta.url));
const PACKAGE_ROOT = path.resolve(path.dirname(ENTRY), "../..");
/** Where build tools keep their caches (find-cache-dir's convention): the user's own, not shared. */
const CACHE_DIR = path.join(PACKAGE_ROOT, "node_modules/.cache/storytrail");

const OPTIONS = {
  bundle: true,
  write: false,
  platform: "node",
  format: "cjs",
  target: "node20",
  // UTF-8 output: the language models' trigrams, escaped as \uXXXX, would triple in size (infra/bundling.ts).
  charset: "utf8",
  logLevel: "error",
} as const satisfies BuildOptions;

interface CachedBundle {
  readonly key: string;
  /** Each input (relative to the package root) and the SHA-256 of its content. */
  readonly inputs: Readonly<Record<string, string>>;
  readonly code: string;
}

const sha256 = (data: string | Buffer): string => createHash("sha256").update(data).digest("hex");

/** The SHA-256 of an input's content (`input` relative to `root`, as esbuild's metafile names it). */
const inputHash = (root: string, input: string): string => sha256(readFileSync(path.join(root, input)));

/** What else the bundle depends on besides its inputs' content. */
function cacheKey(entry: string): string {
  return sha256(JSON.stringify({ entry, esbuild: esbuildVersion, options: OPTIONS }));
}

function cacheFile(cacheDir: string, entry: string): string {
  return path.join(cacheDir, `${path.basename(entry, path.extname(entry))}.bundle.json`);
}

/** The cached bundle if it was built from these very inputs; null otherwise. */
function fromCache(file: string, key: string, root: string): string | null {
  try {
    const cached = JSON.parse(readFileSync(file, "utf8")) as CachedBundle;
    if (cached.key !== key) return null;
    for (const [input, hash] of Object.entries(cached.inputs))
      if (inputHash(root, input) !== hash) return null;
    return cached.code;
  } catch {
    return null;
  }
}

/** Each input's content hash; null if one cannot be read, or changed since the build started (the
 * bundle may hold its older content). */
function inputHashes(inputs: readonly string[], root: string, since: number): Record<string, string> | null {
  const out: Record<string, string> = {};
  try {
    for (const input of inputs) {
      if (statSync(path.join(root, input)).mtimeMs >= since) return null;
      out[input] = inputHash(root, input);
    }
  } catch {
    return null;
  }
  return out;
}

function toCache(file: string, bundle: CachedBundle): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // Written aside and renamed: an import starting meanwhile reads the old bundle or the new, whole.
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, JSON.stringify(bundle));
    renameSync(aside, file);
  } catch {
    // A read-only install: the bundle is built at each start, as without a cache.
  }
}

/**
 * The worker's code with its dependencies, as a CommonJS script a Worker evaluates (`eval: true`).
 * `entry`, `root` and `cacheDir` are the extraction worker's, its package's and node_modules/.cache's
 * unless a test gives others.
 */
export async function extractionWorkerScript(
  entry = ENTRY,
  { root = PACKAGE_ROOT, cacheDir = CACHE_DIR }: { root?: string; cacheDir?: string } = {},
): Promise<string> {
  const key = cacheKey(path.relative(root, entry));
  const file = cacheFile(cacheDir, entry);
  const cached = fromCache(file, key, root);
  if (cached !== null) return cached;
  const started = Date.now();
  const out = await build({ ...OPTIONS, entryPoints: [entry], absWorkingDir: root, metafile: true });
  const script = out.outputFiles[0];
  if (!script) throw new Error(`esbuild produced no bundle for ${entry}`);
  const inputs = inputHashes(Object.keys(out.metafile.inputs), root, started);
  if (inputs) toCache(file, { key, inputs, code: script.text });
  return script.text;
}
