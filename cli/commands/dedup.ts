/**
 * `storytrail dedup --input ARTICLES.jsonl`: clusters near-duplicate articles (shared/dedup/dataset-dedup)
 * and prints one {"id","cluster_id"} per article. Lines that are not articles and repeated ids are
 * reported on stderr with their line numbers; the first record of an id is kept. The clusterer's state
 * is on disk (the embedded store, shared/local-store), so memory does not grow with the articles' count:
 * in a temporary folder, or in --state DIR, where a run stopped part-way resumes.
 */
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { SingleBar } from "cli-progress";
import { type Command, InvalidArgumentError } from "commander";
import { runDedup } from "../../shared/dedup/dataset-dedup";
import { InputError } from "../input-error";

export function registerDedup(program: Command): void {
  program
    .command("dedup")
    .description("Cluster near-duplicate articles (JSONL in, one {id, cluster_id} per article out).")
    .requiredOption(
      "--input <file>",
      'JSONL: {"id","text"|"body","title"?,"ts"|"published_at"?,"publication"?,"url"?}; - for stdin',
    )
    .addHelpText(
      "after",
      "\nA line that is not an article is skipped and reported (line number, JSON or field problem).\nAn id seen before is reported with both line numbers; the first record is kept.",
    )
    .option(
      "--state <dir>",
      "keep the clustering state in DIR: a run stopped part-way resumes there (default: a temporary folder)",
    )
    .option(
      "--workers <n>",
      "threads computing fingerprints while the main thread clusters (default: one per core but the main thread's)",
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("a whole number of at least 1");
        return n;
      },
      Math.max(1, availableParallelism() - 1),
    )
    .action(async (opts: { input: string; state?: string; workers: number }) => {
      const fromStdin = opts.input === "-";
      let total = 0;
      if (!fromStdin) {
        try {
          total = statSync(opts.input).size;
        } catch (err) {
          throw new InputError(
            `--input ${opts.input}: cannot read it (${(err as NodeJS.ErrnoException).code})`,
          );
        }
      }
      const stream = fromStdin ? process.stdin : createReadStream(opts.input);
      const bar =
        process.stderr.isTTY && total > 0 ? new SingleBar({ stream: process.stderr, etaBuffer: 200 }) : null;
      let bytes = 0;
      let n = 0;
      bar?.start(total, 0);
      const warn = (s: string) => process.stderr.write(`${bar ? "\n" : ""}${s}\n`);
      const [{ LocalStore }, { ExtractionPool }] = await Promise.all([
        import("../../shared/local-store/local-store"),
        import("../../shared/backfill/extraction-pool"),
      ]);
      const stateDir = opts.state ? resolve(opts.state) : mkdtempSync(join(tmpdir(), "storytrail-dedup-"));
      const store = LocalStore.open(stateDir);
      const pool = await ExtractionPool.start(opts.workers);
      const result = await runDedup(createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }), {
        store: store.dedup,
        fingerprintAhead: pool,
        commit: () => store.commit(),
        onLine: (line) => {
          bytes += Buffer.byteLength(line) + 1;
          if (bar && ++n % 256 === 0) bar.update(Math.min(bytes, total));
        },
        onSkip: (lineNo, reason) => warn(`line ${lineNo}: skipped, ${reason}`),
        onDuplicate: (d) =>
          warn(
            `line ${d.line}: id ${JSON.stringify(d.id)} already on line ${d.firstLine}${d.differs ? " with a different title or text" : ""}; kept line ${d.firstLine}`,
          ),
      }).finally(() => pool.close());
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
      await store.close();
      if (!opts.state) rmSync(stateDir, { recursive: true, force: true });
      if (result.skipped > 0) process.stderr.write(`${result.skipped} line(s) skipped\n`);
      if (result.duplicates > 0)
        process.stderr.write(`${result.duplicates} repeated id(s) ignored (first record kept)\n`);
    });
}
