/** storytrail command line: parses arguments and calls shared/ and infra/. One file per command. */
import { Command } from "commander";
import { registerCrawl } from "./commands/crawl";
import { registerDedup } from "./commands/dedup";
import { registerExtract } from "./commands/extract";
import { registerReextract } from "./commands/reextract";
import { registerTail } from "./commands/tail";
import { registerUrl } from "./commands/url";

const program = new Command()
  .name("storytrail")
  .description("Turn news sitemaps and feeds into a deduplicated dataset of stories.")
  .showHelpAfterError();

registerCrawl(program);
registerUrl(program);
registerExtract(program);
registerReextract(program);
registerDedup(program);
registerTail(program);

await program.parseAsync(process.argv);
