/**
 * `storytrail import --warc PATH…`: WARC files (plain or gzip) into articles and story clusters on the
 * local runtime, through the fetcher's own extraction, canonical-URL, dedup and cluster code.
 */
import { createReadStream, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import type { LocalRuntime } from "../../infra/local/runtime";
import {
  addSummary,
  emptySummary,
  type ImportSummary,
  skippedTotal,
} from "../../shared/backfill/import-summary";
import type { ExtractAhead } from "../../shared/backfill/import-warc";
import type { WarcEntry } from "../../shared/backfill/warc-pages";

interface ImportOptions {
  warc: string[];
  sources?: string;
  dataDir: string;
  json?: boolean;
  restart?: boolean;
  workers: number;
}

const WARC_NAME = /\.warc(\.gz)?$/i;

/** The WARC files a list of paths names: files as given, directories searched for *.warc and *.warc.gz. */
function warcFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && WARC_NAME.test(entry.name)) out.push(p);
    }
  };
  for (const p of paths) {
    if (statSync(p).isDirectory()) walk(p);
    else out.push(p);
  }
  return out.map((p) => resolve(p));
}

export interface LocalImportOptions {
  /** A sources file's contents: pages of its sources take its ids and names. */
  readonly sources?: unknown;
  /** Where checkpoints are kept (`<data dir>/backfill`). */
  readonly checkpointDir: string;
  /** Ignore checkpoints: read every file from its start (still idempotent). */
  readonly restart?: boolean;
  readonly checkpointEvery?: number;
  readonly settings?: Readonly<Record<string, string | undefined>>;
  /** Bytes of the files read so far, and the entry just accounted for. */
  readonly onProgress?: (bytesRead: number, entry: WarcEntry) => void;
  /** Stops a file at its next checkpoint (tests interrupt an import this way). */
  readonly shouldStop?: () => boolean;
  /** Extraction worker threads (default: none, each page extracted as it is stored). */
  readonly workers?: number;
}

/** Imports files into a running local runtime; dedup runs before every checkpoint. */
export async function importFiles(
  runtime: LocalRuntime,
  files: readonly string[],
  opts: LocalImportOptions,
): Promise<ImportSummary> {
  const [
    { ArticlesTable },
    { DedupQueueSender },
    { RawSamplesBucket },
    { crawlSettings },
    { parseSources },
    { DEFAULT_FETCH_LIMITS },
    { CheckpointFiles },
    { importWarc },
    { SourceLookup },
    { ExtractionPool },
  ] = await Promise.all([
    import("../../shared/aws/articles-table"),
    import("../../shared/aws/queue-sender"),
    import("../../shared/aws/raw-samples"),
    import("../../shared/config/crawl-settings"),
    import("../../shared/discover/sources"),
    import("../../shared/fetch/http"),
    import("../../shared/backfill/checkpoint-files"),
    import("../../shared/backfill/import-warc"),
    import("../../shared/backfill/page-source"),
    import("../../shared/backfill/extraction-pool"),
  ]);
  const settings = crawlSettings(opts.settings ?? process.env);
  const { clients, resources } = runtime;
  const checkpoints = new CheckpointFiles(opts.checkpointDir);
  const pool = opts.workers ? new ExtractionPool(opts.workers) : undefined;
  try {
    return await importEach(files, pool);
  } finally {
    await pool?.close();
  }

  async function importEach(files: readonly string[], extractAhead: ExtractAhead | undefined) {
    const total = emptySummary();
    let bytesBefore = 0;
    for (const file of files) {
      const start = opts.restart ? null : checkpoints.load(file);
      if (start?.done) {
        total.files_already_imported++;
        bytesBefore += statSync(file).size;
        continue;
      }
      let bytesRead = 0;
      const open = (offset: number) => {
        bytesRead = offset;
        const stream = createReadStream(file, { start: offset, highWaterMark: 256 * 1024 });
        stream.on("data", (chunk) => {
          bytesRead += chunk.length;
        });
        return stream;
      };
      const done = await importWarc(file, open, start, {
        page: {
          articles: new ArticlesTable(clients.doc, resources.tables.articles),
          rawSamples: new RawSamplesBucket(clients.s3, resources.buckets.raw),
          dedupQueue: new DedupQueueSender(clients.sqs, resources.queueUrls.dedup),
          sampleRate: settings.STORYTRAIL_RAW_SAMPLE_RATE,
          partners: settings.STORYTRAIL_CANONICAL_PARTNERS,
        },
        sources: new SourceLookup(opts.sources ? parseSources(opts.sources) : []),
        maxBytes: DEFAULT_FETCH_LIMITS.maxBytes,
        // The local queues live in memory: a checkpoint moves only once dedup has clustered what came before.
        flush: async () => {
          await runtime.drain();
        },
        saveCheckpoint: async (cp) => checkpoints.save(file, cp),
        checkpointEvery: opts.checkpointEvery,
        onEntry: (entry) => opts.onProgress?.(bytesBefore + bytesRead, entry),
        shouldStop: opts.shouldStop,
        extractAhead,
      });
      addSummary(total, done.summary);
      bytesBefore += statSync(file).size;
    }
    return total;
  }
}

function summaryLines(s: ImportSummary, seconds: number): string[] {
  const skipped = Object.entries(s.skipped)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  return [
    `imported ${s.files} WARC files in ${seconds.toFixed(1)} s${s.files_already_imported ? ` (${s.files_already_imported} already imported, passed over)` : ""}`,
    `  records read: ${s.records} = articles ${s.articles} + skipped ${skippedTotal(s)} + errors ${s.errors}`,
    `  skipped:      ${skipped || "none"}`,
    ...(s.truncated_articles
      ? [`  truncated:    ${s.truncated_articles} articles read from records the archive cut short`]
      : []),
    ...s.problems.map((p) => `  error:        ${p.file} @ ${p.offset}: ${p.detail}`),
  ];
}

export function registerImport(program: Command): void {
  program
    .command("import")
    .description(
      "Import web archives (WARC, CC-NEWS) on this machine: each HTML response becomes an article and joins the story clusters.",
    )
    .requiredOption("--warc <paths...>", "WARC files (.warc, .warc.gz) or directories holding them")
    .option(
      "--sources <file>",
      "sources file: pages of a source's site take its id and name (else the site's registrable domain)",
    )
    .option(
      "--data-dir <dir>",
      "where tables, raw samples and import checkpoints persist between runs",
      ".storytrail",
    )
    .option(
      "--restart",
      "ignore checkpoints and read every file from its start (importing again changes nothing)",
    )
    .option(
      "--workers <n>",
      "extraction worker threads (default: one per core)",
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("a whole number of at least 1");
        return n;
      },
      availableParallelism(),
    )
    .option("--json", "print the summary as one JSON object")
    .action(async (opts: ImportOptions) => {
      await runImport(opts);
    });
}

async function runImport(opts: ImportOptions): Promise<void> {
  const files = warcFiles(opts.warc);
  const sources = opts.sources ? JSON.parse(readFileSync(resolve(opts.sources), "utf8")) : undefined;
  const [{ SingleBar }, { startEmulators }, { LocalRuntime }, { restoreSamples, saveSamples }] =
    await Promise.all([
      import("cli-progress"),
      import("../../infra/local/emulators"),
      import("../../infra/local/runtime"),
      import("../../infra/local/sample-persistence"),
    ]);
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const started = Date.now();
  const log = (s: string) => process.stderr.write(`${s}\n`);
  log(`starting emulators (data in ${dataDir}) …`);
  const emulators = await startEmulators({ dynamoPath: resolve(dataDir, "dynamodb") });
  const samplesDir = resolve(dataDir, "s3");
  try {
    // The same resource names as `storytrail crawl`: imported pages join the crawl's stories.
    const runtime = await LocalRuntime.start({ endpoints: emulators.endpoints, prefix: "storytrail-" });
    await restoreSamples(runtime.clients.s3, runtime.resources.buckets.raw, samplesDir);
    const totalBytes = files.reduce((n, f) => n + statSync(f).size, 0);
    const bar = process.stderr.isTTY
      ? new SingleBar({ format: "import {bar} {percentage}% | {records} records, {pages} HTML pages" })
      : undefined;
    bar?.start(totalBytes, 0, { records: 0, pages: 0 });
    let records = 0;
    let pages = 0;
    const summary = await importFiles(runtime, files, {
      sources,
      checkpointDir: join(dataDir, "backfill"),
      restart: opts.restart,
      workers: opts.workers,
      onProgress: (bytes, entry) => {
        records++;
        if (entry.kind === "page") pages++;
        bar?.update(Math.min(bytes, totalBytes), { records, pages });
      },
    });
    bar?.stop();
    await saveSamples(runtime.clients.s3, runtime.resources.buckets.raw, samplesDir);
    await runtime.close();
    const seconds = (Date.now() - started) / 1000;
    if (opts.json) process.stdout.write(`${JSON.stringify({ ...summary, seconds })}\n`);
    else process.stdout.write(`${summaryLines(summary, seconds).join("\n")}\n`);
    if (summary.errors > 0) process.exitCode = 1;
  } finally {
    await emulators.stop();
  }
}
