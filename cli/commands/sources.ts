/**
 * `storytrail sources`: the configured sources live in the Sources table (the dispatcher reads them
 * there), not in the stack. `push FILE` validates the file, prints what it adds, changes and removes,
 * and applies that (`--dry-run`: prints only); `list`; `remove ID…`. Against a deployed stack
 * (`--stack NAME`, its SourcesTableName output) or a local run's data directory (`--data-dir`): `list`
 * and `remove` read a run as `export` does (none there: exit 2, nothing created), a push makes one.
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { SourceCatalog, SourcesDiff } from "../../shared/discover/source-catalog";
import type { Source } from "../../shared/discover/sources";
import { InputError } from "../input-error";
import { readJsonFile } from "../read-json-file";
import { existingRunFolder, holdsRun, runFolderToAddTo } from "../run-folder";

interface TargetOptions {
  stack?: string;
  region?: string;
  dataDir: string;
}

/**
 * Runs `f` on the catalog the options name; a local one's emulators stop afterwards. A local folder
 * without a run is refused (exit 2, nothing created) unless the command `makesRun` (a push: the folder
 * becomes a crawl's, as `crawl --sources` would make it).
 */
async function withCatalog<T>(
  opts: TargetOptions,
  makesRun: boolean,
  f: (catalog: SourceCatalog) => Promise<T>,
): Promise<T> {
  if (opts.stack) {
    const [{ stackOutput }, { makeDynamoClients }, { SourceCatalogTable }, { outputNames }] =
      await Promise.all([
        import("../../shared/aws/stack-output"),
        import("../../shared/aws/dynamo-clients"),
        import("../../shared/aws/source-catalog-table"),
        import("../../shared/config/resource-names"),
      ]);
    const table = await stackOutput(opts.stack, outputNames.table("sources"), opts.region);
    const { dynamo, doc } = makeDynamoClients({}, opts.region);
    try {
      return await f(new SourceCatalogTable(doc, table));
    } finally {
      dynamo.destroy();
    }
  }
  const [{ startEmulators }, { LocalRuntime }, { LOCAL_PREFIX }] = await Promise.all([
    import("../../infra/local/emulators"),
    import("../../infra/local/runtime"),
    import("../../shared/config/resource-names"),
  ]);
  const dataDir = makesRun
    ? runFolderToAddTo(opts.dataDir, "crawl")
    : existingRunFolder(opts.dataDir, "storytrail sources push FILE");
  const emulators = await startEmulators({ dynamoPath: resolve(dataDir, "dynamodb") });
  try {
    const runtime = await LocalRuntime.start({ endpoints: emulators.endpoints, prefix: LOCAL_PREFIX });
    try {
      return await f(runtime.sourceCatalog());
    } finally {
      await runtime.close();
    }
  } finally {
    await emulators.stop();
  }
}

async function readSourcesFile(path: string): Promise<Source[]> {
  const { parseSources, SourcesError } = await import("../../shared/discover/sources");
  const json = readJsonFile(path, "sources file");
  try {
    return parseSources(json);
  } catch (err) {
    if (err instanceof SourcesError) throw new InputError(`sources file ${path}: ${err.message}`);
    throw err;
  }
}

const describe = (s: Source) =>
  `${s.publication} (${s.sitemaps.length} sitemap(s), ${s.feeds.length} feed(s), ${s.schedule ?? "default schedule"})`;

async function renderDiff(diff: SourcesDiff): Promise<string> {
  const { changedFields } = await import("../../shared/discover/source-catalog");
  const lines = [
    ...diff.added.map((s) => `+ ${s.id}  ${describe(s)}`),
    ...diff.changed.map((c) => `~ ${c.after.id}  ${changedFields(c.before, c.after).join(", ")}`),
    ...diff.removed.map((s) => `- ${s.id}  ${describe(s)}`),
  ];
  const counts = `${diff.added.length} added, ${diff.changed.length} changed, ${diff.removed.length} removed, ${diff.unchanged} unchanged`;
  return `${[...lines, counts].join("\n")}\n`;
}

function targetOptions(cmd: Command): Command {
  return cmd
    .option("--stack <name>", "a deployed stack (uses your AWS credentials) instead of --data-dir")
    .option("--region <region>", "AWS region of the stack")
    .option("--data-dir <dir>", "a local run's data directory", ".storytrail");
}

export function registerSources(program: Command): void {
  const sources = program
    .command("sources")
    .description("The sources to crawl, kept in the Sources table: push a file, list, remove.");
  targetOptions(
    sources
      .command("push <file>")
      .description(
        "Make the configured sources exactly the file's: prints what is added, changed and removed.",
      )
      .option("--dry-run", "print the changes without applying them"),
  ).action(async (file: string, opts: TargetOptions & { dryRun?: boolean }) => {
    const next = await readSourcesFile(file);
    const { applySourcesDiff, diffSources } = await import("../../shared/discover/source-catalog");
    if (opts.dryRun && !opts.stack && !holdsRun(opts.dataDir)) {
      // No run yet: every source would be added, and a dry run creates nothing to say so.
      process.stdout.write(await renderDiff(diffSources([], next)));
      process.stdout.write("dry run: nothing applied\n");
      return;
    }
    await withCatalog(opts, true, async (catalog) => {
      const diff = diffSources(await catalog.list(), next);
      process.stdout.write(await renderDiff(diff));
      if (opts.dryRun) process.stdout.write("dry run: nothing applied\n");
      else await applySourcesDiff(catalog, diff, new Date());
    });
  });
  targetOptions(
    sources
      .command("list")
      .description("Print the configured sources, one per line.")
      .option("--json", 'print { "sources": [...] }, a file `sources push` takes back'),
  ).action(async (opts: TargetOptions & { json?: boolean }) => {
    await withCatalog(opts, false, async (catalog) => {
      const all = await catalog.list();
      if (opts.json) process.stdout.write(`${JSON.stringify({ sources: all }, null, 2)}\n`);
      else for (const s of all) process.stdout.write(`${s.id}  ${describe(s)}\n`);
    });
  });
  targetOptions(
    sources
      .command("remove <ids...>")
      .description("Remove sources (their crawl state and quality figures too)."),
  ).action(async (ids: string[], opts: TargetOptions) => {
    await withCatalog(opts, false, async (catalog) => {
      const known = new Set((await catalog.list()).map((s) => s.id));
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) throw new InputError(`no configured source ${unknown.join(", ")}`);
      await catalog.remove(ids);
      process.stdout.write(`${ids.length} removed\n`);
    });
  });
}
