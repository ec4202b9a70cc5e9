/** `storytrail reextract`: the current extractor over stored raw samples, and what it would change. */
import { resolve } from "node:path";
import type { Command } from "commander";
import { LOCAL_PREFIX } from "../../shared/config/resource-names";
import type { RawSample } from "../../shared/crawl/ports";
import type { SampleReport } from "../../shared/crawl/reextract";
import { InputError } from "../input-error";
import { DEFAULT_DATA_DIR, existingRunFolder } from "../run-folder";

interface ReextractOptions {
  dataDir: string;
  bucket?: string;
  table?: string;
  region?: string;
  jsonl?: boolean;
}

export function registerReextract(program: Command): void {
  program
    .command("reextract")
    .description("Re-run the current extractor over stored raw HTML samples and report what changed.")
    .option(
      "--data-dir <dir>",
      "the run's folder (as given to crawl, demo or import)",
      DEFAULT_DATA_DIR.crawl,
    )
    .option(
      "--bucket <name>",
      "a deployed raw-sample bucket (uses your AWS credentials) instead of --data-dir",
    )
    .option("--table <name>", "the deployed Articles table to compare with (with --bucket)")
    .option("--region <region>", "AWS region of the deployed stack")
    .option("--jsonl", "print one JSON report per sample instead of the summary")
    .action(async (opts: ReextractOptions) => {
      if (opts.bucket && !opts.table)
        throw new InputError("--bucket needs --table (the Articles table to compare with)");
      await run(opts);
    });
}

async function run(opts: ReextractOptions): Promise<void> {
  // Loaded here, not at start-up: the AWS SDK and the extractor are only needed by this command.
  const [
    { physicalNames },
    { sampleFiles },
    { startEmulators },
    { ArticlesTable },
    { destroyClients, makeClients },
    { RawSamplesBucket },
    { reextract },
  ] = await Promise.all([
    import("../../infra/local/resources"),
    import("../../infra/local/sample-files"),
    import("../../infra/local/emulators"),
    import("../../shared/aws/articles-table"),
    import("../../shared/aws/clients"),
    import("../../shared/aws/raw-samples"),
    import("../../shared/crawl/reextract"),
  ]);
  const summary = {
    samples: 0,
    compared: 0,
    unchanged: 0,
    changed: 0,
    errors: 0,
    fields: {} as Record<string, number>,
  };
  const report = (r: SampleReport) => {
    summary.samples++;
    if (r.error !== undefined) {
      summary.errors++;
      process.stderr.write(`${r.key}: ${r.error}\n`);
    }
    if (r.changes) {
      summary.compared++;
      if (r.changes.length === 0) summary.unchanged++;
      else summary.changed++;
      for (const c of r.changes) summary.fields[c.field] = (summary.fields[c.field] ?? 0) + 1;
    }
    if (opts.jsonl) {
      const { extraction, ...rest } = r;
      process.stdout.write(
        `${JSON.stringify({ ...rest, headline: extraction?.headline ?? null, word_count: extraction?.word_count ?? null })}\n`,
      );
    }
  };

  if (opts.bucket && opts.table) {
    const clients = makeClients({}, opts.region);
    try {
      const bucket = new RawSamplesBucket(clients.s3, opts.bucket);
      const articles = new ArticlesTable(clients.doc, opts.table);
      const samples = async function* (): AsyncGenerator<RawSample> {
        for await (const key of bucket.keys()) yield bucket.get(key);
      };
      for await (const r of reextract(samples(), (id) => articles.get(id))) report(r);
    } finally {
      destroyClients(clients);
    }
  } else {
    const dataDir = existingRunFolder(opts.dataDir);
    const emulators = await startEmulators({ dynamoPath: resolve(dataDir, "dynamodb") });
    const clients = makeClients(emulators.endpoints);
    try {
      const articles = new ArticlesTable(clients.doc, physicalNames(LOCAL_PREFIX).table("articles"));
      const stored = (id: string) => articles.get(id).catch(() => null);
      for await (const r of reextract(sampleFiles(resolve(dataDir, "s3")), stored)) report(r);
    } finally {
      destroyClients(clients);
      await emulators.stop();
    }
  }
  if (!opts.jsonl) {
    const fields = Object.entries(summary.fields)
      .sort((a, b) => b[1] - a[1])
      .map(([f, n]) => `${f} ${n}`)
      .join(", ");
    process.stdout.write(
      `${summary.samples} raw samples, ${summary.compared} with a stored article: ${summary.unchanged} unchanged, ${summary.changed} changed${fields ? ` (${fields})` : ""}${summary.errors ? `, ${summary.errors} the extractor failed on` : ""}\n`,
    );
  }
}
