import type { Command } from "commander";
import { canonicalUrl, InvalidUrlError, resolveCanonical } from "../../shared/url/canonical-url";

/** `storytrail url URL... [--canonical REL] [--partner HOST]`: the canonical form of each URL, one per line. */
export function registerUrl(program: Command): void {
  program
    .command("url")
    .description("print the canonical form of each URL, one per line")
    .argument("<urls...>", "URLs to canonicalise")
    .option("--canonical <rel>", "the page's rel=canonical; used when it stays on the same site or a partner")
    .option("--partner <host...>", "syndication partners whose canonical is trusted")
    .action((urls: string[], opts: { canonical?: string; partner?: string[] }) => {
      let failed = false;
      for (const url of urls) {
        try {
          const out =
            opts.canonical === undefined
              ? canonicalUrl(url)
              : resolveCanonical(url, opts.canonical, { partners: opts.partner ?? [] });
          process.stdout.write(`${out}\n`);
        } catch (err) {
          if (!(err instanceof InvalidUrlError)) throw err;
          process.stderr.write(`storytrail url: ${err.message}\n`);
          failed = true;
        }
      }
      if (failed) process.exitCode = 1;
    });
}
