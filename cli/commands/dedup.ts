import type { Command } from "commander";

export function registerDedup(program: Command): void {
  program
    .command("dedup")
    .description("(not built yet)")
    .action(() => {
      throw new Error("storytrail dedup: not built yet");
    });
}
