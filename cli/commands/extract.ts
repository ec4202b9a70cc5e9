/** `storytrail extract`: run the article extractor over local HTML files (.html or .html.gz). */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import type { Command } from "commander";
import { EXTRACTOR_VERSION, extractArticle } from "../../shared/extract/article";
import { decodeBody } from "../../shared/fetch/charset";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Valid UTF-8 as UTF-8 (saved pages are often re-encoded); otherwise decoded as the fetcher would. */
function readHtml(file: string): string {
  const raw = readFileSync(file);
  const gz = file.endsWith(".gz") || (raw[0] === 0x1f && raw[1] === 0x8b);
  const buf = gz ? gunzipSync(raw) : raw;
  try {
    return strictUtf8.decode(buf);
  } catch {
    return decodeBody(buf, null).text;
  }
}

interface ListItem {
  id?: unknown;
  path?: unknown;
  url?: unknown;
}

function extractFile(file: string, url: string | null, now: Date | undefined): Record<string, unknown> {
  const record = extractArticle({ html: readHtml(file), url: url ?? "about:blank", now });
  return { url, ...record };
}

export function registerExtract(program: Command): void {
  program
    .command("extract")
    .description(`extract article records from saved HTML pages (extractor ${EXTRACTOR_VERSION})`)
    .argument("[files...]", "HTML files (.html or .html.gz)")
    .option("--url <url>", "the URL the page was fetched from (resolves relative links)")
    .option("--input <list>", 'JSONL list of {"id","path","url"}; prints JSONL {"id", ...record}')
    .option("--now <iso>", "reference time for future-date checks (default: now)")
    .option("--pretty", "indent the JSON")
    .action((files: string[], opts: { url?: string; input?: string; now?: string; pretty?: boolean }) => {
      const now = opts.now ? new Date(opts.now) : undefined;
      if (now && Number.isNaN(now.getTime())) throw new Error(`--now: not a date: ${opts.now}`);
      const print = (v: unknown): void => {
        process.stdout.write(`${JSON.stringify(v, null, opts.pretty ? 2 : undefined)}\n`);
      };
      if (!opts.input && files.length === 0) {
        program.error("storytrail extract: give FILE... or --input LIST.jsonl");
      }
      let failures = 0;
      for (const file of files) {
        try {
          print(extractFile(file, opts.url ?? null, now));
        } catch (e) {
          failures++;
          process.stderr.write(`${file}: ${(e as Error).message}\n`);
        }
      }
      if (opts.input) {
        const listDir = path.dirname(path.resolve(opts.input));
        const lines = readFileSync(opts.input, "utf8").split("\n");
        for (const [n, line] of lines.entries()) {
          if (!line.trim()) continue;
          let item: ListItem;
          try {
            item = JSON.parse(line) as ListItem;
          } catch {
            failures++;
            process.stderr.write(`${opts.input}:${n + 1}: not JSON\n`);
            continue;
          }
          const id = item.id ?? null;
          const p = typeof item.path === "string" ? item.path : "";
          const file = existsSync(p) ? p : path.resolve(listDir, p);
          const url = typeof item.url === "string" ? item.url : null;
          try {
            print({ id, ...extractFile(file, url, now) });
          } catch (e) {
            failures++;
            print({ id, url, error: (e as Error).message });
          }
        }
      }
      if (failures > 0) process.exitCode = 1;
    });
}
