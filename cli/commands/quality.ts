/**
 * `storytrail quality`: the per-publisher quality table and the latest findings, local or deployed. An
 * import's data directory has no daily quality run: its table is made from the store's articles, day by
 * day of collection (shared/quality/archive-quality.ts).
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import { LOCAL_PREFIX } from "../../shared/config/resource-names";
import { hasLocalStore } from "../../shared/local-store/store-folder";
import type { SourceQuality } from "../../shared/quality/quality-table";
import { DEFAULT_DATA_DIR, existingRunFolder } from "../run-folder";

interface QualityCliOptions {
  dataDir: string;
  table?: string;
  region?: string;
  json?: boolean;
}

function print(
  sources: readonly SourceQuality[],
  json: boolean | undefined,
  render: (s: readonly SourceQuality[]) => string,
): void {
  if (json) for (const s of sources) process.stdout.write(`${JSON.stringify(s)}\n`);
  else process.stdout.write(render(sources));
}

/** An import's store: the quality of its articles by day of collection. */
async function storeQuality(dataDir: string): Promise<SourceQuality[]> {
  const [{ LocalStore }, { archiveQuality }] = await Promise.all([
    import("../../shared/local-store/local-store"),
    import("../../shared/quality/archive-quality"),
  ]);
  const store = LocalStore.open(dataDir);
  try {
    return await archiveQuality(store.articleItems());
  } finally {
    await store.close();
  }
}

export function registerQuality(program: Command): void {
  program
    .command("quality")
    .description("Print per-publisher extraction quality (latest day against its history) and the findings.")
    .option(
      "--data-dir <dir>",
      "the run's folder (as given to crawl, demo or import)",
      DEFAULT_DATA_DIR.crawl,
    )
    .option("--table <name>", "a deployed Sources table (uses your AWS credentials) instead of --data-dir")
    .option("--region <region>", "AWS region of the deployed stack")
    .option("--json", "one JSON object per source instead of the table")
    .action(async (opts: QualityCliOptions) => {
      // Checked before anything starts: DynamoDB Local would create an empty database in the folder.
      const dataDir = opts.table ? undefined : existingRunFolder(opts.dataDir);
      if (dataDir && hasLocalStore(dataDir)) {
        const { renderQualityTable } = await import("../../shared/quality/quality-table");
        return print(await storeQuality(dataDir), opts.json, renderQualityTable);
      }
      const [
        { physicalNames },
        { startEmulators },
        { destroyClients, makeClients },
        { SourcesTable },
        table,
      ] = await Promise.all([
        import("../../infra/local/resources"),
        import("../../infra/local/emulators"),
        import("../../shared/aws/clients"),
        import("../../shared/aws/sources-table"),
        import("../../shared/quality/quality-table"),
      ]);
      const { isMissingTable, NotARunError } = await import("../../infra/local/not-a-run-error");
      const emulators = dataDir
        ? await startEmulators({ dynamoPath: resolve(dataDir, "dynamodb") })
        : undefined;
      const clients = makeClients(emulators?.endpoints ?? {}, opts.region);
      try {
        const name = opts.table ?? physicalNames(LOCAL_PREFIX).table("sources");
        const sources: SourceQuality[] = [];
        try {
          for await (const s of new SourcesTable(clients.doc, name).qualityOfAll()) sources.push(s);
        } catch (err) {
          if (dataDir && isMissingTable(err)) throw new NotARunError(opts.dataDir, name);
          throw err;
        }
        sources.sort((a, b) => a.source_id.localeCompare(b.source_id));
        print(sources, opts.json, table.renderQualityTable);
      } finally {
        destroyClients(clients);
        await emulators?.stop();
      }
    });
}
