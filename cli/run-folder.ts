/**
 * One rule for `--data-dir` on every command: it names the folder that holds a run's tables (its
 * `dynamodb/`, `s3/`, `sqs/`), nothing below it. Each kind of run has a default folder of its own, and
 * a folder records which kind made it (a marker file), so two different runs never mix in one folder:
 * a run of another kind into it is refused with the folder to use instead.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { hasLocalStore } from "../shared/local-store/store-folder";
import { InputError } from "./input-error";

/** `crawl --sources` and `import` share a run (imported pages join the crawl's stories). */
export type RunKind = "crawl" | "crawl-demo" | "demo";

/** The folder each kind of run uses when `--data-dir` is not given. */
export const DEFAULT_DATA_DIR: Readonly<Record<RunKind, string>> = {
  crawl: ".storytrail",
  "crawl-demo": ".storytrail/crawl-demo",
  demo: ".storytrail/demo",
};

/** What makes each kind of run, for messages. */
const MADE_BY: Readonly<Record<RunKind, string>> = {
  crawl: "storytrail crawl --sources FILE (or storytrail import)",
  "crawl-demo": "storytrail crawl --demo",
  demo: "storytrail demo",
};

/** The marker a run leaves in its folder: which kind of run the tables belong to. */
const MARKER_FILE = "storytrail-run.json";
/** DynamoDB Local's one database file (sharedDb): a folder holds a run once it exists. */
const TABLES_FILE = join("dynamodb", "shared-local-instance.db");

/** The folder as the user would type it again (relative to where they are, when inside it). */
function shown(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel && !rel.startsWith("..") ? rel : dir;
}

function markerKind(dir: string): RunKind | undefined {
  const file = join(dir, MARKER_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const kind = (JSON.parse(readFileSync(file, "utf8")) as { kind?: unknown }).kind;
    if (typeof kind === "string" && kind in MADE_BY) return kind as RunKind;
  } catch {}
  throw new InputError(`${shown(file)} is not a storytrail run marker: remove it, or use another --data-dir`);
}

/** Whether `dir` holds a run: a crawl's tables, or the embedded store an import made. */
export function holdsRun(dir: string): boolean {
  return existsSync(join(dir, TABLES_FILE)) || hasLocalStore(dir);
}

/**
 * For a command that writes a run of `kind` into `dataDir`: the folder (absolute, created), marked as
 * this kind's. A folder another kind of run made is refused, naming the folder this kind uses.
 */
export function claimRunFolder(dataDir: string, kind: RunKind): string {
  const dir = resolve(dataDir);
  const made = markerKind(dir);
  if (made && made !== kind) {
    const other = resolve(DEFAULT_DATA_DIR[kind]) === dir ? `another folder` : DEFAULT_DATA_DIR[kind];
    throw new InputError(
      `${shown(dir)} holds a run of \`${MADE_BY[made]}\`; \`${MADE_BY[kind]}\` keeps its own run apart:\n` +
        `give it another folder, e.g. --data-dir ${other}`,
    );
  }
  mkdirSync(dir, { recursive: true });
  // A folder of an earlier version holds tables without a marker: it is adopted by the run given it.
  if (!made) writeFileSync(join(dir, MARKER_FILE), `${JSON.stringify({ kind })}\n`);
  return dir;
}

/**
 * For a command that adds to whatever run a folder holds (`sources push`): that folder as it is, or, where
 * there is no run, the folder claimed for a run of `kind` (created, marked) as the command making one would.
 */
export function runFolderToAddTo(dataDir: string, kind: RunKind): string {
  const dir = resolve(dataDir);
  markerKind(dir);
  return holdsRun(dir) ? dir : claimRunFolder(dir, kind);
}

/** Folders below `dir` (the defaults' sub-folders, an older version's `demo/`) that hold a run. */
function runsBelow(dir: string): string[] {
  const names = new Set([
    "demo",
    "crawl-demo",
    ...Object.values(DEFAULT_DATA_DIR).map((d) => relative(".storytrail", d)),
  ]);
  return [...names].filter((n) => n && holdsRun(join(dir, n))).map((n) => join(dir, n));
}

/** The commands that make a run, the first named first in a message. */
const RUN_MAKERS = [
  "storytrail crawl --sources FILE",
  "storytrail demo",
  "storytrail crawl --demo",
  "storytrail import",
] as const;

/**
 * For a command that reads a run (export, report, tail, quality, sources list, …): the folder
 * (absolute), once it is known to hold one. Nothing is created: a folder without a run is an
 * InputError that names `makeWith`, the command making one there (then the others), or the folder
 * below that holds one.
 */
export function existingRunFolder(dataDir: string, makeWith: string = RUN_MAKERS[0]): string {
  const dir = resolve(dataDir);
  markerKind(dir);
  if (holdsRun(dir)) return dir;
  const below = runsBelow(dir);
  const what = existsSync(dir) ? `no run in ${shown(dir)} (no tables there)` : `no folder ${shown(dir)}`;
  if (below.length > 0)
    throw new InputError(
      `${what}; ${below.map(shown).join(" and ")} ${below.length > 1 ? "hold runs" : "holds one"}:\n` +
        `use --data-dir ${shown(below[0]!)}`,
    );
  const others = RUN_MAKERS.filter((c) => c !== makeWith).map((c) => `\`${c}\``);
  throw new InputError(
    `${what}: make one with \`${makeWith} --data-dir ${shown(dir)}\`\n` +
      `(or ${others.join(", ")} with --data-dir ${shown(dir)})`,
  );
}
