import type { Command } from "commander";

export function registerExtract(program: Command): void {
  program
    .command("extract")
    .description("(not built yet)")
    .action(() => {
      throw new Error("storytrail extract: not built yet");
    });
}
