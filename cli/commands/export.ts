/** `storytrail export`: the dataset out of a local run (or a deployed stack's S3 export) as files. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { DatasetSource } from "../../shared/export/dataset";
import { type ExportFormat, exportFormats } from "../../shared/export/formats";
import { InputError } from "../input-error";
import { DEFAULT_DATA_DIR, existingRunFolder } from "../run-folder";

interface ExportOptions {
  dataDir: string;
  fromS3Export?: string;
  format: string;
  out: string;
}

function parseFormats(value: string): ExportFormat[] {
  const formats = value.split(",").map((s) => s.trim().toLowerCase());
  for (const f of formats) {
    if (!(exportFormats as readonly string[]).includes(f))
      throw new InputError(
        `--format must be one or more of ${exportFormats.join(", ")} (comma-separated), got "${f}"`,
      );
  }
  return [...new Set(formats)] as ExportFormat[];
}

export function registerExport(program: Command): void {
  program
    .command("export")
    .description(
      "Write the dataset as files: articles.* (one row per article) and stories.* (one row per story).",
    )
    .option(
      "--data-dir <dir>",
      "the run's folder (as given to crawl, demo or import)",
      DEFAULT_DATA_DIR.crawl,
    )
    .option(
      "--from-s3-export <dir>",
      "read a deployed stack's DynamoDB export instead: <dir>/clusters and <dir>/articles (scripts/export-from-aws.sh)",
    )
    .option("--format <formats>", `${exportFormats.join(", ")}, or several comma-separated`, "jsonl")
    .requiredOption("--out <dir>", "directory for the files (created if missing)")
    .action(async (opts: ExportOptions) => {
      const formats = parseFormats(opts.format);
      const run = async (source: DatasetSource) => writeExport(source, formats, resolve(opts.out));
      const dataDir = opts.fromS3Export ? opts.dataDir : existingRunFolder(opts.dataDir);
      const { withDataset } = await import("../../infra/local/data-dir-dataset");
      await withDataset({ ...opts, dataDir }, run);
    });
}

async function writeExport(source: DatasetSource, formats: ExportFormat[], outDir: string): Promise<void> {
  const [{ buildDataset }, { datasetTables }, { encodeTable }] = await Promise.all([
    import("../../shared/export/dataset"),
    import("../../shared/export/tables"),
    import("../../shared/export/formats"),
  ]);
  const tables = datasetTables(await buildDataset(source));
  mkdirSync(outDir, { recursive: true });
  for (const format of formats) {
    for (const t of tables) {
      const file = join(outDir, `${t.name}.${format}`);
      writeFileSync(file, encodeTable(t, format));
      process.stdout.write(`${file}: ${t.rows.length} ${t.name}\n`);
    }
  }
}
