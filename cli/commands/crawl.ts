/** `storytrail crawl`: a local run of the whole pipeline on emulators, ending with a summary of counts. */
import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { DemoSite } from "../../infra/local/demo-site";
import type { Emulators } from "../../infra/local/emulators";
import type { RunCounts } from "../../infra/local/runtime";
import { ABANDONED, settleOrAbandon } from "../../infra/local/settle-or-abandon";
import { clockFrom } from "../../shared/config/clock";
import { LOCAL_PREFIX } from "../../shared/config/resource-names";
import type { SourceRunSummary } from "../../shared/crawl/discover-run";
import { parseSources, SourcesError } from "../../shared/discover/sources";
import { functionSettings } from "../function-settings";
import { InputError } from "../input-error";
import { readJsonFile } from "../read-json-file";
import { claimRunFolder, DEFAULT_DATA_DIR } from "../run-folder";
import { SIGNAL_EXIT_CODES, type StopSignal, stopOnSignals } from "../stop-on-signals";

/**
 * The demo site's default port, so a second run finds the same URLs. Below every OS's ephemeral range
 * (Linux 32768+, macOS and Windows 49152+): a server bound to port 0 elsewhere never takes it.
 */
const DEMO_PORT = 28_380;

/** Written into the data directory while a crawl runs: its emulators' endpoints (`storytrail tail`). */
export const ENDPOINTS_FILE = "endpoints.json";

interface CrawlOptions {
  sources?: string;
  demo?: boolean;
  demoPort: string;
  dataDir?: string;
  allowPrivate?: boolean;
  runId?: string;
  json?: boolean;
  retryDelay: string;
}

/** SQS's longest visibility timeout: the longest a failed message can be held back. */
const MAX_RETRY_DELAY_SECONDS = 43_200;

function retryDelaySeconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > MAX_RETRY_DELAY_SECONDS)
    throw new InputError(
      `--retry-delay must be a whole number of seconds from 0 to ${MAX_RETRY_DELAY_SECONDS}, got "${value}"`,
    );
  return n;
}

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 65_535)
    throw new InputError(`--demo-port must be a port number from 1 to 65535, got "${value}"`);
  return n;
}

function readSources(path: string): unknown {
  const json = readJsonFile(path, "sources file");
  try {
    return { sources: parseSources(json) };
  } catch (err) {
    if (err instanceof SourcesError) throw new InputError(`sources file ${path}: ${err.message}`);
    throw err;
  }
}

export function registerCrawl(program: Command): void {
  program
    .command("crawl")
    .description("Crawl the sources on this machine: local emulators, the same handlers as in AWS.")
    .option("--sources <file>", "sources file (JSON: { sources: [...] }, see sources.example.json)")
    .option("--demo", "crawl the embedded demo news site on loopback (three outlets, one syndicated story)")
    .option(
      "--demo-port <port>",
      "the demo site's port: a second run must use the same one",
      String(DEMO_PORT),
    )
    .option(
      "--data-dir <dir>",
      `the run's folder: tables, raw samples and queued work persist there between runs (default: ${DEFAULT_DATA_DIR.crawl}, with --demo ${DEFAULT_DATA_DIR["crawl-demo"]})`,
    )
    .option(
      "--allow-private",
      "allow fetching loopback and private addresses (local test sites only); same as STORYTRAIL_ALLOW_PRIVATE_ADDRESSES=true",
    )
    .option("--run-id <id>", "run id (defaults to local-<current UTC time>)")
    .option("--json", "print the summary as JSON")
    .option(
      "--retry-delay <seconds>",
      "how long a page that failed transiently (5xx, 429, timeout) waits before its retry; in AWS it waits the fetch queue's visibility timeout",
      "30",
    )
    .addHelpText(
      "after",
      "\nEvery STORYTRAIL_* setting in the environment (see settings.example.json) reaches the crawl's functions.\nCtrl-C (or SIGTERM) ends the run within 5 s: requests in flight are let go and left for the next run\nwith the same --data-dir, the summary is printed, the emulators stop, and the exit code is 130 (143).",
    )
    .action(async (opts: CrawlOptions) => {
      if (!opts.sources && !opts.demo) throw new InputError("crawl needs --sources FILE or --demo");
      retryDelaySeconds(opts.retryDelay);
      await crawl(opts);
    });
}

async function crawl(opts: CrawlOptions): Promise<void> {
  // Everything the user gave is checked before anything starts.
  // The demo's defaults first; `--allow-private` (and --demo) is STORYTRAIL_ALLOW_PRIVATE_ADDRESSES=true.
  const settings = functionSettings(
    process.env,
    opts.demo ? { STORYTRAIL_MIN_HOST_DELAY_MS: "100", STORYTRAIL_RAW_SAMPLE_RATE: "1" } : {},
    opts.allowPrivate || opts.demo ? { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true" } : {},
  );
  const sourcesFromFile = opts.demo ? undefined : readSources(resolve(opts.sources ?? ""));
  const demoPort = port(opts.demoPort);
  const retryDelay = retryDelaySeconds(opts.retryDelay);
  // Loaded here, not at start-up: the runtime pulls in the AWS SDK and every handler.
  const [
    { SingleBar },
    { startDemoSite },
    { startEmulators },
    { LocalRuntime },
    { saveSamples },
    { restoreQueues, saveQueues },
    { archiveLocalRun, archiveSummary },
  ] = await Promise.all([
    import("cli-progress"),
    import("../../infra/local/demo-site"),
    import("../../infra/local/emulators"),
    import("../../infra/local/runtime"),
    import("../../infra/local/sample-persistence"),
    import("../../infra/local/queue-persistence"),
    import("../../infra/local/archive-run"),
  ]);
  // The demo site's run and a crawl of real sources never share a folder (cli/run-folder.ts).
  const kind = opts.demo ? "crawl-demo" : "crawl";
  const given = opts.dataDir ?? DEFAULT_DATA_DIR[kind];
  const dataDir = claimRunFolder(given, kind);
  const log = (s: string) => process.stderr.write(`${s}\n`);
  let site: DemoSite | undefined;
  let emulators: Emulators | undefined;
  const stop = stopOnSignals(() => emulators?.killNow(), log);
  try {
    let sources = sourcesFromFile;
    if (opts.demo) {
      // Dated by the functions' clock (STORYTRAIL_NOW or the wall clock), so it never ages out.
      site = await startDemoSite({ port: demoPort, at: clockFrom(settings.STORYTRAIL_NOW)() });
      // The demo's URLs carry its port: on another port a second run would find every page new and
      // its counts would be wrong (the flake of a CLI test run twice at once). Refuse instead.
      const moved = site.outlets.filter((o) => new URL(o.origin).port !== String(demoPort));
      if (moved.length > 0)
        throw new InputError(
          `demo site: port ${demoPort} is taken on ${moved.map((o) => new URL(o.origin).hostname).join(", ")} (another demo running?); use --demo-port`,
        );
      sources = site.sources;
      log(`demo site: ${site.outlets.map((o) => `${o.publication} ${o.origin}`).join(", ")}`);
    }
    const started = Date.now();
    log(`starting emulators (data in ${dataDir}) …`);
    emulators = await startEmulators({ dynamoPath: resolve(dataDir, "dynamodb") });
    if (stop.signal.aborted) return;
    // `storytrail tail --data-dir` attaches to this run's emulators through this file.
    writeFileSync(join(dataDir, ENDPOINTS_FILE), JSON.stringify(emulators.endpoints));
    const samplesDir = resolve(dataDir, "s3");
    const queuesDir = resolve(dataDir, "sqs");
    const runtime = await LocalRuntime.start({
      endpoints: emulators.endpoints,
      prefix: LOCAL_PREFIX,
      // A failed message waits before its retry, as behind Lambda: a host answering 503 for a
      // moment is not hammered three times in a second and its page not dead-lettered for it.
      retryDelaySeconds: retryDelay,
      settings,
    });
    try {
      // Work a stopped run left in the queues (fauxqs keeps none across restarts) is done by this one.
      const resumed = await restoreQueues(runtime.clients.sqs, runtime.resources.queueUrls, queuesDir);
      if (resumed) log(`resumed ${resumed} queued messages of an earlier run`);
      // A run stopped mid-request left its host taken until the lease ran out (35 s); none of it is out.
      const freed = await runtime.freeAbandonedHosts();
      if (freed) log(`freed ${freed} hosts a stopped run had taken`);
      // DynamoDB Local never expires items: what DynamoDB's TTL would have deleted by the run's clock
      // goes now, each a REMOVE with the TTL's userIdentity on the Clusters stream (ttl-sweeper.ts).
      const expired = await runtime.sweepExpired(clockFrom(settings.STORYTRAIL_NOW)());
      if (Object.keys(expired).length > 0)
        log(
          `expired ${Object.entries(expired)
            .map(([t, n]) => `${n} ${t} items`)
            .join(", ")} (TTL)`,
        );
      // One run per invocation (Lambda's default, the UTC hour, would merge two local runs' counts).
      const runId = opts.runId ?? `local-${new Date().toISOString().replace(/\.\d+Z$/, "Z")}`;
      log("discovering …");
      // A signal ends discovery as its timeout would: what each source found so far is enqueued. A
      // sitemap request a publisher never answers is let go of (its source is discovered next run).
      const discovered = await settleOrAbandon(
        runtime.discover({ sources, run_id: runId }, { signal: stop.signal }),
        stop.signal,
      );
      const discovery = discovered === ABANDONED ? { enqueued: 0, sources: [] } : discovered;
      log(`enqueued ${discovery.enqueued} URLs from ${discovery.sources.length} sources`);
      const bar = process.stderr.isTTY
        ? new SingleBar({ format: "{fn} {bar} {value}/{total} messages" })
        : undefined;
      bar?.start(discovery.enqueued, 0, { fn: "fetch" });
      let fetched = 0;
      await runtime.drain({
        signal: stop.signal,
        onBatch: (p) => {
          if (p.fn !== "fetch") return;
          fetched += p.received - p.failed;
          bar?.update(Math.min(fetched, discovery.enqueued), { fn: p.fn });
        },
      });
      bar?.stop();
      const counts = await runtime.runCounts(runId);
      const saved = await saveSamples(runtime.clients.s3, runtime.resources.buckets.raw, samplesDir);
      const interrupted = stop.received();
      // The days before the clock's are complete: into DIR/dataset/, then their hot window starts.
      const archived = interrupted ? null : archiveSummary(await archiveLocalRun(runtime, dataDir, runId));
      if (archived) log(archived);
      const summary = {
        ...counts,
        sources: discovery.sources,
        raw_samples: saved,
        seconds: (Date.now() - started) / 1000,
        ...(interrupted ? { interrupted } : {}),
      };
      process.stdout.write(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : summaryText(summary));
    } finally {
      // What a stopped run leaves in the queues waits in the data directory for the next one.
      const left = await saveQueues(runtime.clients.sqs, runtime.resources.queueUrls, queuesDir);
      if (left) log(`kept ${left} queued messages in ${queuesDir} for the next run`);
      await runtime.close();
    }
  } finally {
    rmSync(join(dataDir, ENDPOINTS_FILE), { force: true });
    await emulators?.stop();
    await site?.close();
    stop.dispose();
    const received = stop.received();
    if (received) {
      log(`stopped by ${received}; the next run with --data-dir ${given} resumes what is left`);
      // Now, not when the requests let go of time out: the process's exit ends them.
      process.exit(SIGNAL_EXIT_CODES[received]);
    }
  }
}

type Summary = RunCounts & {
  sources: readonly SourceRunSummary[];
  raw_samples: number;
  seconds: number;
  interrupted?: StopSignal;
};

function summaryText(s: Summary): string {
  const lines = [
    `run ${s.run_id} ${s.interrupted ? `stopped by ${s.interrupted} after` : "finished in"} ${s.seconds.toFixed(1)} s`,
    ...s.sources.map(
      (x) =>
        `  source ${x.source_id}: discovered ${x.discovered}, new ${x.new}, updated ${x.updated}, seen ${x.seen}, robots-disallowed ${x.disallowed}, problems ${x.problems}${x.problems ? ` ${JSON.stringify(x.problem_reasons)}` : ""}${x.completed ? "" : " (out of time: the rest next run)"}`,
    ),
    `  URLs claimed this run: ${s.claimed}`,
    `  fetched as articles:   ${s.articles} URLs → ${s.distinct_articles} distinct articles`,
    `  failed (with reason):  ${s.failed}${Object.keys(s.failure_reasons).length ? ` ${JSON.stringify(s.failure_reasons)}` : ""}`,
    `  still pending:         ${s.pending}`,
    `  dead-lettered:         fetch ${s.dead_lettered.fetch}, dedup ${s.dead_lettered.dedup}`,
    `  story clusters:        ${s.clusters} (${s.clustered_articles} articles)`,
    `  raw samples kept:      ${s.raw_samples}`,
  ];
  return `${lines.join("\n")}\n`;
}
