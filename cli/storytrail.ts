/** storytrail command line: parses arguments and calls shared/ and infra/. One file per command. */
import { Command } from "commander";
import { registerCrawl } from "./commands/crawl";
import { registerDedup } from "./commands/dedup";
import { registerExtract } from "./commands/extract";
import { registerImport } from "./commands/import";
import { registerQuality } from "./commands/quality";
import { registerRedrive } from "./commands/redrive";
import { registerReextract } from "./commands/reextract";
import { registerUrl } from "./commands/url";

const program = new Command()
  .name("storytrail")
  .description("Turn news sitemaps and feeds into a deduplicated dataset of stories.")
  .showHelpAfterError();

registerCrawl(program);
registerUrl(program);
registerExtract(program);
registerReextract(program);
registerImport(program);
registerDedup(program);
registerQuality(program);
registerRedrive(program);

await program.parseAsync(process.argv);
