/** storytrail command line: parses arguments and calls shared/ and infra/. One file per command. */
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { NotARunError } from "../infra/local/not-a-run-error";
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
import { DEFAULT_DATA_DIR } from "./run-folder";

/** The package's own version, read where the bin runs from (one declaration: package.json). */
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

const program = new Command()
  .name("storytrail")
  .description("Turn news sitemaps and feeds into a deduplicated dataset of stories.")
  .version(version)
  .option("--verbose", "print an error's stack trace (as STORYTRAIL_DEBUG=1 does)");

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

/** `--demo` names a site to crawl, not a folder: a command reading a run is told the folders instead. */
const DEMO_FOLDERS = `to read a demo's run: --data-dir ${DEFAULT_DATA_DIR.demo} (storytrail demo) or --data-dir ${DEFAULT_DATA_DIR["crawl-demo"]} (crawl --demo)`;

// Misuse (an unknown option, a missing value) is two lines: commander's message and where to look.
for (const cmd of [program, ...program.commands]) {
  const name = cmd === program ? "storytrail" : `storytrail ${cmd.name()}`;
  cmd.exitOverride().configureOutput({
    outputError: (message, write) => {
      const hint = message.includes("unknown option '--demo'") ? DEMO_FOLDERS : `see \`${name} --help\``;
      write(`${name}: ${message.trim().replace(/^error: /, "")}\n${hint}\n`);
    },
  });
}

const debug = process.env.STORYTRAIL_DEBUG === "1" || process.argv.includes("--verbose");

/** A file or folder the user named that is not there or cannot be read (Node's fs errors carry it). */
function pathProblem(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException;
  if (!(err instanceof Error) || !e.path || !["ENOENT", "EACCES", "EISDIR", "ENOTDIR"].includes(e.code ?? ""))
    return undefined;
  const what = e.code === "ENOENT" ? "no such file or folder" : `cannot use it (${e.code})`;
  return `${e.path}: ${what}; check the path given to the command`;
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const trace = debug && err instanceof Error && err.stack ? `${err.stack}\n` : "";
  if (err instanceof CommanderError) {
    // Already printed (help, --version, or the two lines above).
    process.exitCode = err.exitCode === 0 ? 0 : INPUT_ERROR_EXIT_CODE;
  } else if (err instanceof InputError || err instanceof NotARunError || pathProblem(err)) {
    // Bad input is the user's to fix: the message says what and where; a stack trace would only hide it.
    process.stderr.write(`storytrail: ${pathProblem(err) ?? (err as Error).message}\n${trace}`);
    process.exitCode = INPUT_ERROR_EXIT_CODE;
  } else {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `storytrail: ${message}\n${trace || "(--verbose or STORYTRAIL_DEBUG=1 prints where it happened)\n"}`,
    );
    process.exitCode = 1;
  }
}
