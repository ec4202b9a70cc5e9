import type { Command } from "commander";

export function registerCrawl(program: Command): void {
  program
    .command("crawl")
    .description("(not built yet)")
    .action(() => {
      throw new Error("storytrail crawl: not built yet");
    });
}
