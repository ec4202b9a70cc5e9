/**
 * `storytrail dedup --input ARTICLES.jsonl`: clusters near-duplicate articles with the dedup
 * Lambda's clustering code over the in-memory index, and prints one {"id","cluster_id"} per article.
 * Input is streamed line by line; memory holds only the index (fingerprints, buckets, clusters).
 */
import { createReadStream, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import * as z from "zod/mini";
import { addArticle, type DedupArticle } from "../../shared/dedup/clusterer";
import { computeFingerprint } from "../../shared/dedup/fingerprint";
import { MemoryDedupStore } from "../../shared/dedup/memory-index";
import "../../shared/config/zod-messages";

const inputLine = z.object({
  id: z.pipe(z.union([z.string(), z.number()]), z.transform(String)),
  text: z.optional(z.string()),
  body: z.optional(z.string()),
  title: z.optional(z.nullable(z.string())),
  ts: z.optional(z.nullable(z.string())),
  published_at: z.optional(z.nullable(z.string())),
  publication: z.optional(z.nullable(z.string())),
  url: z.optional(z.nullable(z.string())),
});
export type DedupInputLine = z.input<typeof inputLine>;

function isoOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** Maps one input record to what the clusterer takes (fingerprint computed here, as fetch does). */
export function toDedupArticle(raw: unknown, collectedAt: string): DedupArticle {
  const r = inputLine.parse(raw);
  const text = r.text ?? r.body ?? "";
  return {
    article_id: r.id,
    url: r.url ?? `urn:storytrail:article:${encodeURIComponent(r.id)}`,
    publication: r.publication ?? "unknown",
    // The outlet's id in a crawl; a dataset without one names outlets by publication.
    source_id: r.publication ?? "unknown",
    headline: r.title ?? null,
    published_at: isoOrNull(r.published_at ?? r.ts),
    collected_at: collectedAt,
    fingerprint: computeFingerprint(text, r.title),
  };
}

export interface DedupRunResult {
  store: MemoryDedupStore;
  /** Ids in input order with their final cluster ids. */
  assignments: { id: string; cluster_id: string }[];
  skipped: number;
}

/** Clusters a stream of JSONL lines. `onLine` is called after each line (for progress). */
export async function runDedup(
  lines: AsyncIterable<string>,
  options: { onLine?: (line: string) => void; onSkip?: (lineNo: number, error: string) => void } = {},
): Promise<DedupRunResult> {
  const store = new MemoryDedupStore();
  const collectedAt = new Date().toISOString();
  const order: string[] = [];
  let skipped = 0;
  let lineNo = 0;
  const fixedClock = () => collectedAt;
  for await (const line of lines) {
    lineNo++;
    options.onLine?.(line);
    if (line.trim() === "") continue;
    let article: DedupArticle;
    try {
      article = toDedupArticle(JSON.parse(line), collectedAt);
    } catch (e) {
      skipped++;
      options.onSkip?.(lineNo, e instanceof Error ? e.message.split("\n")[0]! : String(e));
      continue;
    }
    if (!(await store.getArticle(article.article_id))) order.push(article.article_id);
    await addArticle(store, article, { now: fixedClock });
  }
  const final = new Map<string, string>();
  for (const a of store.assignments()) final.set(a.article_id, a.cluster_id);
  return { store, assignments: order.map((id) => ({ id, cluster_id: final.get(id)! })), skipped };
}

export function registerDedup(program: Command): void {
  program
    .command("dedup")
    .description("Cluster near-duplicate articles (JSONL in, one {id, cluster_id} per article out).")
    .requiredOption(
      "--input <file>",
      'JSONL: {"id","text"|"body","title"?,"ts"|"published_at"?,"publication"?,"url"?}; - for stdin',
    )
    .action(async (opts: { input: string }) => {
      const fromStdin = opts.input === "-";
      const stream = fromStdin ? process.stdin : createReadStream(opts.input);
      const total = fromStdin ? 0 : statSync(opts.input).size;
      const bar =
        process.stderr.isTTY && total > 0 ? new SingleBar({ stream: process.stderr, etaBuffer: 200 }) : null;
      let bytes = 0;
      let n = 0;
      bar?.start(total, 0);
      const result = await runDedup(createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }), {
        onLine: (line) => {
          bytes += Buffer.byteLength(line) + 1;
          if (bar && ++n % 256 === 0) bar.update(Math.min(bytes, total));
        },
        onSkip: (lineNo, error) => process.stderr.write(`line ${lineNo}: skipped (${error})\n`),
      });
      bar?.update(total);
      bar?.stop();
      let out = "";
      for (const a of result.assignments) {
        out += `${JSON.stringify({ id: a.id, cluster_id: a.cluster_id })}\n`;
        if (out.length > 1 << 16) {
          if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once("drain", r));
          out = "";
        }
      }
      process.stdout.write(out);
      if (result.skipped > 0) process.stderr.write(`${result.skipped} line(s) skipped\n`);
    });
}
