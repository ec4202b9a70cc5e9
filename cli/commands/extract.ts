/** `storytrail extract`: run the article extractor over local HTML files (.html or .html.gz). */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import type { Command } from "commander";
import { EXTRACTOR_VERSION, extractArticle } from "../../shared/extract/article";
import { decodeBody } from "../../shared/fetch/charset";
import { DEFAULT_FETCH_LIMITS } from "../../shared/fetch/http";
import { InputError } from "../input-error";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A saved page may be no larger than a fetched one (the fetch cap, DEFAULT_FETCH_LIMITS.maxBytes), before
 * or after gunzip: a 1 MB gzip file that expands to 1 GiB stops at the cap instead of taking the memory.
 */
const MAX_PAGE_BYTES = DEFAULT_FETCH_LIMITS.maxBytes;

/** Valid UTF-8 as UTF-8 (saved pages are often re-encoded); otherwise decoded as the fetcher would. */
function readHtml(file: string): string {
  const size = statSync(file).size;
  if (size > MAX_PAGE_BYTES)
    throw new Error(
      `${size} bytes, more than the ${MAX_PAGE_BYTES}-byte page cap (the fetch cap); not extracted`,
    );
  const raw = readFileSync(file);
  const gz = file.endsWith(".gz") || (raw[0] === 0x1f && raw[1] === 0x8b);
  let buf = raw;
  if (gz) {
    try {
      buf = gunzipSync(raw, { maxOutputLength: MAX_PAGE_BYTES });
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
        throw new Error(
          `decompresses to more than the ${MAX_PAGE_BYTES}-byte page cap (the fetch cap); not extracted`,
        );
      throw new Error(`not valid gzip: ${(err as Error).message}`);
    }
  }
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
      if (now && Number.isNaN(now.getTime())) throw new InputError(`--now: not a date: ${opts.now}`);
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
            print({ id, url, path: file, error: (e as Error).message });
          }
        }
      }
      if (failures > 0) process.exitCode = 1;
    });
}
