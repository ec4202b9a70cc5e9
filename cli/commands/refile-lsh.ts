/** `storytrail refile-lsh`: files recent articles' LSH entries again under the current layout. */
import { resolve } from "node:path";
import type { Command } from "commander";
import { LOCAL_PREFIX } from "../../shared/config/resource-names";
import { InputError } from "../input-error";
import { DEFAULT_DATA_DIR, existingRunFolder } from "../run-folder";

interface RefileCliOptions {
  dataDir: string;
  fingerprintsTable?: string;
  bucketsTable?: string;
  region?: string;
  days?: string;
}

export function registerRefileLsh(program: Command): void {
  program
    .command("refile-lsh")
    .description(
      "After an LSH layout change: file the articles collected in the retention window under the current layout.",
    )
    .option(
      "--data-dir <dir>",
      "the run's folder (as given to crawl, demo or import)",
      DEFAULT_DATA_DIR.crawl,
    )
    .option(
      "--fingerprints-table <name>",
      "a deployed stack's Fingerprints table (output FingerprintsTableName)",
    )
    .option("--buckets-table <name>", "a deployed stack's Buckets table (output BucketsTableName)")
    .option("--region <region>", "AWS region of the stack")
    .option("--days <n>", "how far back (default: STORYTRAIL_LSH_RETENTION_DAYS, the entries' lifetime)")
    .action(async (opts: RefileCliOptions) => {
      const [
        { physicalNames },
        { startEmulators },
        { destroyClients, makeClients },
        store,
        scan,
        refile,
        settings,
        { clockFrom },
      ] = await Promise.all([
        import("../../infra/local/resources"),
        import("../../infra/local/emulators"),
        import("../../shared/aws/clients"),
        import("../../shared/aws/dedup-tables"),
        import("../../shared/aws/fingerprints-scan"),
        import("../../shared/dedup/refile-buckets"),
        import("../../shared/config/crawl-settings"),
        import("../../shared/config/clock"),
      ]);
      const crawl = settings.crawlSettings(process.env);
      const retention = crawl.STORYTRAIL_LSH_RETENTION_DAYS;
      // The functions' clock (STORYTRAIL_NOW for a replayed run), which the entries' expiry is read against.
      const clock = clockFrom(crawl.STORYTRAIL_NOW);
      const days = opts.days === undefined ? retention : Number(opts.days);
      if (!(Number.isFinite(days) && days > 0))
        throw new InputError(`--days must be a positive number (got ${opts.days})`);
      const deployed = opts.fingerprintsTable !== undefined || opts.bucketsTable !== undefined;
      if (deployed && !(opts.fingerprintsTable && opts.bucketsTable))
        throw new InputError(
          "--fingerprints-table and --buckets-table go together (the stack's outputs name both)",
        );
      const emulators = deployed
        ? undefined
        : await startEmulators({ dynamoPath: resolve(existingRunFolder(opts.dataDir), "dynamodb") });
      const clients = makeClients(emulators?.endpoints ?? {}, opts.region);
      try {
        // A deployed stack's tables are named by CloudFormation (its outputs); the local runtime's by its prefix.
        const local = physicalNames(LOCAL_PREFIX);
        const tables = {
          fingerprints: opts.fingerprintsTable ?? local.table("fingerprints"),
          buckets: opts.bucketsTable ?? local.table("buckets"),
          clusters: local.table("clusters"), // not touched: re-filing writes bucket entries only
        };
        const dedup = new store.DynamoDedupStore(clients.doc, tables, {
          lshRetentionDays: retention,
          nowMs: () => clock().getTime(),
        });
        const now = clock();
        const result = await refile.refileBuckets(
          scan.scanFingerprints(clients.doc, tables.fingerprints),
          dedup,
          { since: new Date(now.getTime() - days * 86_400_000), now },
        );
        process.stdout.write(
          `${result.refiled} articles filed under the current layout (${result.scanned} read, ${result.older} older than ${days} days, ${result.unindexable} too short to index)\n`,
        );
      } finally {
        destroyClients(clients);
        await emulators?.stop();
      }
    });
}
