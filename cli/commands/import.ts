/**
 * `storytrail import --warc PATH…`: WARC files (plain or gzip) into articles and story clusters on the
 * local runtime, through the fetcher's own extraction, canonical-URL, dedup and cluster code.
 */
import { createReadStream, existsSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import type { Emulators } from "../../infra/local/emulators";
import type { LocalRuntime } from "../../infra/local/runtime";
import {
  addSummary,
  emptySummary,
  type ImportSummary,
  skippedTotal,
} from "../../shared/backfill/import-summary";
import type { PrepareAhead } from "../../shared/backfill/import-warc";
import { LOCAL_PREFIX } from "../../shared/config/resource-names";
import type { PageDeps } from "../../shared/crawl/fetch-article";
import { parseSources, SourcesError } from "../../shared/discover/sources";
import type { LocalStore } from "../../shared/local-store/local-store";
import { hasLocalStore } from "../../shared/local-store/store-folder";
import { InputError } from "../input-error";
import { readJsonFile } from "../read-json-file";
import { claimRunFolder, DEFAULT_DATA_DIR } from "../run-folder";
import { SIGNAL_EXIT_CODES, stopOnSignals } from "../stop-on-signals";

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
  /** Bytes of the files read so far, and articles stored so far, after each record. */
  readonly onProgress?: (bytesRead: number, articles: number) => void;
  /** Stops a file at its next checkpoint (tests interrupt an import this way). */
  readonly shouldStop?: () => boolean;
  /** Extraction worker threads (default: none, each page extracted as it is stored). */
  readonly workers?: number;
}

/** Where imported pages go, and how what was handed on is made durable before a checkpoint. */
interface ImportTarget {
  readonly page: Omit<PageDeps, "now" | "frontier" | "sampleRate" | "partners">;
  readonly flush: () => Promise<void>;
  /** Records between checkpoints (default: importWarc's). */
  readonly checkpointEvery?: number;
}

/** The local runtime's emulated tables, queues and bucket (a crawl's data directory). */
async function emulatorTarget(runtime: LocalRuntime): Promise<ImportTarget> {
  const [{ ArticlesTable }, { DedupQueueSender }, { RawSamplesBucket }] = await Promise.all([
    import("../../shared/aws/articles-table"),
    import("../../shared/aws/queue-sender"),
    import("../../shared/aws/raw-samples"),
  ]);
  const { clients, resources } = runtime;
  return {
    page: {
      articles: new ArticlesTable(clients.doc, resources.tables.articles),
      rawSamples: new RawSamplesBucket(clients.s3, resources.buckets.raw),
      dedupQueue: new DedupQueueSender(clients.sqs, resources.queueUrls.dedup),
    },
    // The local queues live in memory: a checkpoint moves only once dedup has clustered what came before.
    flush: async () => {
      await runtime.drain();
    },
  };
}

/**
 * Records between the embedded store's checkpoints: each commits the store (one synchronous, durable
 * LMDB transaction: 80–165 ms of the main thread on the bench's WARC, load ~3.5), during which the
 * workers, their queues full, wait. Every 500 records (importWarc's default) that was ~0.5 s of the
 * import's 5.7 s wall at 1x; 5,000 records is ~10 s of work at ~250 pages/s, what a stopped import
 * reads again.
 */
const STORE_CHECKPOINT_EVERY = 5_000;

/** The embedded store: each article clustered as it is stored, committed before a checkpoint. */
async function storeTarget(store: LocalStore): Promise<ImportTarget> {
  const { LocalDedupQueue } = await import("../../shared/local-store/local-dedup-queue");
  return {
    page: { articles: store.articles, rawSamples: store.samples, dedupQueue: new LocalDedupQueue(store) },
    flush: async () => store.commit(),
    checkpointEvery: STORE_CHECKPOINT_EVERY,
  };
}

/**
 * Imports files into a local store (an import's data directory) or a running local runtime (a
 * crawl's); dedup has run on everything before each checkpoint.
 */
export async function importFiles(
  into: LocalRuntime | LocalStore,
  files: readonly string[],
  opts: LocalImportOptions,
): Promise<ImportSummary> {
  // The workers start (bundle, then load) while this thread loads the rest: ~0.5 s of a core otherwise idle.
  const poolStarting = opts.workers
    ? import("../../shared/backfill/extraction-pool").then((m) => m.ExtractionPool.start(opts.workers ?? 1))
    : undefined;
  // A pool that started is closed whatever happens next (its workers would keep the process alive).
  const closePool = () => poolStarting?.then((p) => p.close()).catch(() => {});
  try {
    return await importWith(into, files, opts, poolStarting);
  } finally {
    await closePool();
  }
}

async function importWith(
  into: LocalRuntime | LocalStore,
  files: readonly string[],
  opts: LocalImportOptions,
  poolStarting: Promise<PrepareAhead> | undefined,
): Promise<ImportSummary> {
  const [
    { crawlSettings },
    { parseSources },
    { DEFAULT_FETCH_LIMITS },
    { CheckpointFiles },
    { importWarc },
    { SourceLookup },
    { LocalStore },
  ] = await Promise.all([
    import("../../shared/config/crawl-settings"),
    import("../../shared/discover/sources"),
    import("../../shared/fetch/http"),
    import("../../shared/backfill/checkpoint-files"),
    import("../../shared/backfill/import-warc"),
    import("../../shared/backfill/page-source"),
    import("../../shared/local-store/local-store"),
  ]);
  const settings = crawlSettings(opts.settings ?? process.env);
  const target = into instanceof LocalStore ? await storeTarget(into) : await emulatorTarget(into);
  const sources = new SourceLookup(opts.sources ? parseSources(opts.sources) : []);
  const checkpoints = new CheckpointFiles(opts.checkpointDir);
  const pool = await poolStarting;
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
        ...target.page,
        sampleRate: settings.STORYTRAIL_RAW_SAMPLE_RATE,
        partners: settings.STORYTRAIL_CANONICAL_PARTNERS,
      },
      sources,
      maxBytes: DEFAULT_FETCH_LIMITS.maxBytes,
      flush: target.flush,
      saveCheckpoint: async (cp) => checkpoints.save(file, cp),
      checkpointEvery: opts.checkpointEvery ?? target.checkpointEvery,
      onEntry: (_, file) => opts.onProgress?.(bytesBefore + bytesRead, total.articles + file.articles),
      shouldStop: opts.shouldStop,
      prepareAhead: pool,
    });
    addSummary(total, done.summary);
    bytesBefore += statSync(file).size;
  }
  return total;
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
      "the run's folder: its store, raw samples and import checkpoints persist there (a crawl's too: the pages join its stories)",
      DEFAULT_DATA_DIR.crawl,
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

/** Imports into the data directory's store; into the emulated tables when it holds a crawl's. */
async function importInto(
  dataDir: string,
  files: readonly string[],
  opts: LocalImportOptions,
  log: (s: string) => void,
  /** Told of the emulators once started, so a forced stop can kill them with the process. */
  started: (emulators: Emulators) => void,
): Promise<ImportSummary> {
  const { LocalStore } = await import("../../shared/local-store/local-store");
  if (hasLocalStore(dataDir) || !existsSync(join(dataDir, "dynamodb"))) {
    log(`importing into ${join(dataDir, "store")}`);
    const store = LocalStore.open(dataDir);
    try {
      return await importFiles(store, files, opts);
    } finally {
      await store.close();
    }
  }
  const [{ startEmulators }, { LocalRuntime }, { saveSamples }] = await Promise.all([
    import("../../infra/local/emulators"),
    import("../../infra/local/runtime"),
    import("../../infra/local/sample-persistence"),
  ]);
  log(`${dataDir} holds a crawl: starting emulators so that imported pages join its stories …`);
  const emulators = await startEmulators({ dynamoPath: resolve(dataDir, "dynamodb") });
  started(emulators);
  const samplesDir = resolve(dataDir, "s3");
  try {
    // The same resource names as `storytrail crawl`.
    const runtime = await LocalRuntime.start({ endpoints: emulators.endpoints, prefix: LOCAL_PREFIX });
    const summary = await importFiles(runtime, files, opts);
    await saveSamples(runtime.clients.s3, runtime.resources.buckets.raw, samplesDir);
    await runtime.close();
    return summary;
  } finally {
    await emulators.stop();
  }
}

async function runImport(opts: ImportOptions): Promise<void> {
  const files = warcFiles(opts.warc);
  const sources = opts.sources ? readJsonFile(resolve(opts.sources), "sources file") : undefined;
  try {
    if (sources !== undefined) parseSources(sources);
  } catch (err) {
    if (err instanceof SourcesError) throw new InputError(`sources file ${opts.sources}: ${err.message}`);
    throw err;
  }
  // The same folder as `storytrail crawl --sources`: imported pages join that run's stories.
  const dataDir = claimRunFolder(opts.dataDir, "crawl");
  const { ImportProgress } = await import("./import-progress");
  const started = Date.now();
  const totalBytes = files.reduce((n, f) => n + statSync(f).size, 0);
  const progress = new ImportProgress(totalBytes, opts.json ? "json" : process.stderr.isTTY ? "bar" : "none");
  // A signal stops each file at its next checkpoint; the next import resumes from there.
  let emulators: Emulators | undefined;
  const stop = stopOnSignals(
    () => emulators?.killNow(),
    (s) => progress.log(s),
  );
  try {
    const summary = await importInto(
      dataDir,
      files,
      {
        sources,
        checkpointDir: join(dataDir, "backfill"),
        restart: opts.restart,
        workers: opts.workers,
        shouldStop: () => stop.signal.aborted,
        onProgress: (bytes, articles) => progress.update(bytes, articles),
      },
      (s) => progress.log(s),
      (e) => {
        emulators = e;
      },
    ).finally(() => progress.stop());
    const seconds = (Date.now() - started) / 1000;
    if (opts.json) process.stdout.write(`${JSON.stringify({ ...summary, seconds })}\n`);
    else process.stdout.write(`${summaryLines(summary, seconds).join("\n")}\n`);
    if (summary.errors > 0) process.exitCode = 1;
  } finally {
    stop.dispose();
    const received = stop.received();
    if (received) {
      progress.log(
        `stopped by ${received}; the next import with --data-dir ${opts.dataDir} resumes from the checkpoints`,
      );
      process.exit(SIGNAL_EXIT_CODES[received]);
    }
  }
}
