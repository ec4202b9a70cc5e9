/** `storytrail report`: one self-contained HTML page about a run's stories and publishers. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import type { DatasetSource } from "../../shared/export/dataset";
import { DEFAULT_DATA_DIR, existingRunFolder } from "../run-folder";

interface ReportOptions {
  dataDir: string;
  fromS3Export?: string;
  out: string;
}

/** Builds the report from `source` and writes it to `file`; returns what it counted. */
export async function writeReport(source: DatasetSource, file: string, now = new Date()) {
  const [{ buildDataset }, { reportData }, { renderReport }] = await Promise.all([
    import("../../shared/export/dataset"),
    import("../../shared/report/report-data"),
    import("../../shared/report/report-page"),
  ]);
  const dataset = await buildDataset(source);
  const frontier: Record<string, unknown>[] = [];
  for await (const item of source.frontierItems()) frontier.push(item);
  const data = reportData(dataset, frontier, { now });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, renderReport(data));
  return { dataset, data };
}

export function registerReport(program: Command): void {
  program
    .command("report")
    .description(
      "Write an HTML report: top stories, how each spread, the fastest outlets, the most revised stories, extraction quality.",
    )
    .option(
      "--data-dir <dir>",
      "the run's folder (as given to crawl, demo or import)",
      DEFAULT_DATA_DIR.crawl,
    )
    .option(
      "--from-s3-export <dir>",
      "read a deployed stack's DynamoDB export instead (see `storytrail export`)",
    )
    .option("--out <file>", "the HTML file to write", "storytrail-report.html")
    .action(async (opts: ReportOptions) => {
      const file = resolve(opts.out);
      const run = async (source: DatasetSource) => {
        const { data } = await writeReport(source, file);
        process.stdout.write(
          `${file}: ${data.totals.stories} stories (${data.totals.multi_outlet} carried by 2+ outlets), ${data.totals.articles} articles, ${data.totals.outlets} outlets\n`,
        );
      };
      const dataDir = opts.fromS3Export ? opts.dataDir : existingRunFolder(opts.dataDir);
      const { withDataset } = await import("../../infra/local/data-dir-dataset");
      await withDataset({ ...opts, dataDir }, run);
    });
}
