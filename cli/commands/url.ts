import type { Command } from "commander";

export function registerUrl(program: Command): void {
  program
    .command("url")
    .description("(not built yet)")
    .action(() => {
      throw new Error("storytrail url: not built yet");
    });
}
