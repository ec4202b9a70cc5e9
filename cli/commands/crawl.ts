/** `storytrail crawl`: a local run of the whole pipeline on emulators, ending with a summary of counts. */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { DemoSite } from "../../infra/local/demo-site";

/**
 * The demo site's fixed port, so a second run finds the same URLs. Below every OS's ephemeral range
 * (Linux 32768+, macOS and Windows 49152+): a server bound to port 0 elsewhere never takes it.
 */
const DEMO_PORT = 28_380;

/** Prefix of a local run's tables, queues and bucket. */
export const LOCAL_PREFIX = "storytrail-";
/** Written into the data directory while a crawl runs: its emulators' endpoints (`storytrail tail`). */
export const ENDPOINTS_FILE = "endpoints.json";

interface CrawlOptions {
  sources?: string;
  demo?: boolean;
  dataDir: string;
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
    throw new Error(
      `--retry-delay must be a whole number of seconds from 0 to ${MAX_RETRY_DELAY_SECONDS}, got "${value}"`,
    );
  return n;
}

export function registerCrawl(program: Command): void {
  program
    .command("crawl")
    .description("Crawl the sources on this machine: local emulators, the same handlers as in AWS.")
    .option("--sources <file>", "sources file (JSON: { sources: [...] }, see sources.example.json)")
    .option("--demo", "crawl the embedded demo news site on loopback (three outlets, one syndicated story)")
    .option("--data-dir <dir>", "where tables and raw samples persist between runs", ".storytrail")
    .option("--allow-private", "allow fetching loopback and private addresses (local test sites only)")
    .option("--run-id <id>", "run id (defaults to local-<current UTC time>)")
    .option("--json", "print the summary as JSON")
    .option(
      "--retry-delay <seconds>",
      "how long a page that failed transiently (5xx, 429, timeout) waits before its retry; in AWS it waits the fetch queue's visibility timeout",
      "30",
    )
    .action(async (opts: CrawlOptions) => {
      if (!opts.sources && !opts.demo) throw new Error("crawl needs --sources FILE or --demo");
      retryDelaySeconds(opts.retryDelay);
      await crawl(opts);
    });
}

async function crawl(opts: CrawlOptions): Promise<void> {
  // Loaded here, not at start-up: the runtime pulls in the AWS SDK and every handler.
  const [
    { SingleBar },
    { startDemoSite },
    { startEmulators },
    { LocalRuntime },
    { restoreSamples, saveSamples },
  ] = await Promise.all([
    import("cli-progress"),
    import("../../infra/local/demo-site"),
    import("../../infra/local/emulators"),
    import("../../infra/local/runtime"),
    import("../../infra/local/sample-persistence"),
  ]);
  // The demo keeps its state apart from real crawls (`storytrail reextract --data-dir .storytrail/demo`).
  const dataDir = resolve(opts.demo ? join(opts.dataDir, "demo") : opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const log = (s: string) => process.stderr.write(`${s}\n`);
  let site: DemoSite | undefined;
  let sources: unknown;
  if (opts.demo) {
    // The same ports each time when free, so that a second run shows what "already seen" does.
    site = await startDemoSite({ port: DEMO_PORT });
    sources = site.sources;
    log(`demo site: ${site.outlets.map((o) => `${o.publication} ${o.origin}`).join(", ")}`);
  } else {
    sources = JSON.parse(readFileSync(resolve(opts.sources ?? ""), "utf8"));
  }
  const started = Date.now();
  log(`starting emulators (data in ${dataDir}) …`);
  const emulators = await startEmulators({ dynamoPath: resolve(dataDir, "dynamodb") });
  const samplesDir = resolve(dataDir, "s3");
  writeFileSync(join(dataDir, ENDPOINTS_FILE), JSON.stringify(emulators.endpoints));
  try {
    const runtime = await LocalRuntime.start({
      endpoints: emulators.endpoints,
      prefix: LOCAL_PREFIX,
      // A failed message waits before its retry, as behind Lambda: a host answering 503 for a
      // moment is not hammered three times in a second and its page not dead-lettered for it.
      retryDelaySeconds: retryDelaySeconds(opts.retryDelay),
      settings: {
        ...(opts.demo || opts.allowPrivate ? { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true" } : {}),
        ...(opts.demo ? { STORYTRAIL_MIN_HOST_DELAY_MS: "100", STORYTRAIL_RAW_SAMPLE_RATE: "1" } : {}),
      },
    });
    const restored = await restoreSamples(runtime.clients.s3, runtime.resources.buckets.raw, samplesDir);
    if (restored) log(`restored ${restored} raw samples`);
    // One run per invocation (Lambda's default, the UTC hour, would merge two local runs' counts).
    const runId = opts.runId ?? `local-${new Date().toISOString().replace(/\.\d+Z$/, "Z")}`;
    log("discovering …");
    const discovery = await runtime.discover({ sources, run_id: runId });
    log(`enqueued ${discovery.enqueued} URLs from ${discovery.sources.length} sources`);
    const bar = process.stderr.isTTY
      ? new SingleBar({ format: "{fn} {bar} {value}/{total} messages" })
      : undefined;
    bar?.start(discovery.enqueued, 0, { fn: "fetch" });
    let fetched = 0;
    await runtime.drain({
      onBatch: (p) => {
        if (p.fn !== "fetch") return;
        fetched += p.received - p.failed;
        bar?.update(Math.min(fetched, discovery.enqueued), { fn: p.fn });
      },
    });
    bar?.stop();
    const counts = await runtime.runCounts(runId);
    const saved = await saveSamples(runtime.clients.s3, runtime.resources.buckets.raw, samplesDir);
    await runtime.close();
    const summary = {
      ...counts,
      sources: discovery.sources,
      raw_samples: saved,
      seconds: (Date.now() - started) / 1000,
    };
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    } else {
      const lines = [
        `run ${counts.run_id} finished in ${summary.seconds.toFixed(1)} s`,
        ...discovery.sources.map(
          (s) =>
            `  source ${s.source_id}: discovered ${s.discovered}, new ${s.new}, updated ${s.updated}, seen ${s.seen}, robots-disallowed ${s.disallowed}, problems ${s.problems}${s.problems ? ` ${JSON.stringify(s.problem_reasons)}` : ""}`,
        ),
        `  URLs claimed this run: ${counts.claimed}`,
        `  fetched as articles:   ${counts.articles} URLs → ${counts.distinct_articles} distinct articles`,
        `  failed (with reason):  ${counts.failed}${Object.keys(counts.failure_reasons).length ? ` ${JSON.stringify(counts.failure_reasons)}` : ""}`,
        `  still pending:         ${counts.pending}`,
        `  dead-lettered:         fetch ${counts.dead_lettered.fetch}, dedup ${counts.dead_lettered.dedup}`,
        `  story clusters:        ${counts.clusters} (${counts.clustered_articles} articles)`,
        `  raw samples kept:      ${saved}`,
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
    }
  } finally {
    rmSync(join(dataDir, ENDPOINTS_FILE), { force: true });
    await emulators.stop();
    await site?.close();
  }
}
