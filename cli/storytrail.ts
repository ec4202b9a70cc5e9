/** storytrail command line: parses arguments and calls shared/ and infra/. One file per command. */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { registerBackfill } from "./commands/backfill";
import { registerCrawl } from "./commands/crawl";
import { registerDedup } from "./commands/dedup";
import { registerDemo } from "./commands/demo";
import { registerExport } from "./commands/export";
import { registerExtract } from "./commands/extract";
import { registerImport } from "./commands/import";
import { registerQuality } from "./commands/quality";
import { registerRedrive } from "./commands/redrive";
import { registerReextract } from "./commands/reextract";
import { registerRefileLsh } from "./commands/refile-lsh";
import { registerReport } from "./commands/report";
import { registerSources } from "./commands/sources";
import { registerTail } from "./commands/tail";
import { registerUrl } from "./commands/url";
import { INPUT_ERROR_EXIT_CODE, InputError } from "./input-error";

/** The package's own version, read where the bin runs from (one declaration: package.json). */
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

const program = new Command()
  .name("storytrail")
  .description("Turn news sitemaps and feeds into a deduplicated dataset of stories.")
  .version(version)
  .showHelpAfterError();

registerCrawl(program);
registerSources(program);
registerUrl(program);
registerExtract(program);
registerReextract(program);
registerImport(program);
registerBackfill(program);
registerDedup(program);
registerQuality(program);
registerRedrive(program);
registerRefileLsh(program);
registerExport(program);
registerReport(program);
registerDemo(program);
registerTail(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // Bad input is the user's to fix: the message says what and where; a stack trace would only hide it.
  if (err instanceof InputError) {
    process.stderr.write(`storytrail: ${err.message}\n`);
    process.exitCode = INPUT_ERROR_EXIT_CODE;
  } else {
    process.stderr.write(`storytrail: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  }
}
