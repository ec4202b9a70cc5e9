/** `storytrail quality`: the per-publisher quality table and the latest findings, local or deployed. */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { SourceQuality } from "../../shared/quality/quality-table";

interface QualityCliOptions {
  dataDir: string;
  table?: string;
  region?: string;
  json?: boolean;
}

export function registerQuality(program: Command): void {
  program
    .command("quality")
    .description("Print per-publisher extraction quality (latest day against its history) and the findings.")
    .option("--data-dir <dir>", "a local run's data directory", ".storytrail")
    .option("--table <name>", "a deployed Sources table (uses your AWS credentials) instead of --data-dir")
    .option("--region <region>", "AWS region of the deployed stack")
    .option("--json", "one JSON object per source instead of the table")
    .action(async (opts: QualityCliOptions) => {
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
      const emulators = opts.table
        ? undefined
        : await startEmulators({ dynamoPath: resolve(opts.dataDir, "dynamodb") });
      const clients = makeClients(emulators?.endpoints ?? {}, opts.region);
      try {
        const name = opts.table ?? physicalNames("storytrail-").table("sources");
        const sources: SourceQuality[] = [];
        for await (const s of new SourcesTable(clients.doc, name).qualityOfAll()) sources.push(s);
        sources.sort((a, b) => a.source_id.localeCompare(b.source_id));
        if (opts.json) for (const s of sources) process.stdout.write(`${JSON.stringify(s)}\n`);
        else process.stdout.write(table.renderQualityTable(sources));
      } finally {
        destroyClients(clients);
        await emulators?.stop();
      }
    });
}
