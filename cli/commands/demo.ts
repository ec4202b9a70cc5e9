/**
 * `storytrail demo` (`npm run demo`): a generated news web on loopback (a wire service and nine
 * outlets), crawled end to end on the local emulators, then the story table and the HTML report.
 */
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { ABANDONED, settleOrAbandon } from "../../infra/local/settle-or-abandon";
import { clockFrom } from "../../shared/config/clock";
import { crawlSettingsSchema } from "../../shared/config/crawl-settings";
import { LOCAL_PREFIX } from "../../shared/config/resource-names";
import type { StoryRow } from "../../shared/export/dataset";
import { duration } from "../../shared/report/svg-charts";
import { functionSettings } from "../function-settings";
import { InputError } from "../input-error";
import { claimRunFolder, DEFAULT_DATA_DIR } from "../run-folder";
import { SIGNAL_EXIT_CODES, stopOnSignals } from "../stop-on-signals";

/** The demo web's fixed port (so a second run finds the same URLs); `crawl --demo` uses 28380. */
const DEMO_WEB_PORT = 28_390;

interface DemoOptions {
  dataDir: string;
  at?: string;
  port: string;
  report?: string;
  json?: boolean;
}

/** STORYTRAIL_NOW from the environment, checked as `crawl` checks it (an instant with its zone). */
function clockStartFromEnv(): string | undefined {
  const value = process.env.STORYTRAIL_NOW || undefined;
  if (!crawlSettingsSchema.shape.STORYTRAIL_NOW.safeParse(value).success)
    throw new InputError(`STORYTRAIL_NOW must be an ISO 8601 instant with a time zone, got "${value}"`);
  return value;
}

/** The demo web's clock: `--at`, else the start of the clock's UTC day (STORYTRAIL_NOW or the wall
 * clock's), so runs on one day serve the same lastmods. */
function anchorOf(at: string | undefined, clockStart: string | undefined): Date {
  if (!at) return new Date(`${clockFrom(clockStart)().toISOString().slice(0, 10)}T00:00:00Z`);
  const t = Date.parse(at);
  if (Number.isNaN(t) || !/(Z|[+-]\d\d:?\d\d)$/.test(at.trim()))
    throw new InputError(`--at must be an ISO 8601 instant with a time zone, got "${at}"`);
  return new Date(t);
}

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description(
      "Crawl a generated news web (a wire service, nine outlets) on loopback; print its stories; write the report.",
    )
    .option(
      "--data-dir <dir>",
      "the run's folder: its tables persist there between runs",
      DEFAULT_DATA_DIR.demo,
    )
    .option("--at <instant>", "the demo web's clock (ISO 8601); default: the start of the current UTC day")
    .option("--port <port>", "port of the demo web's hosts (0: any free one)", String(DEMO_WEB_PORT))
    .option("--report <file>", "where to write the HTML report (default: <data-dir>/report.html)")
    .option("--json", "print the stories and counts as JSON")
    .action(async (opts: DemoOptions) => demo(opts));
}

/** One line per outlet under each multi-outlet story: who carried it and how long after the first. */
function storyTable(stories: readonly StoryRow[]): string[] {
  const lines: string[] = [];
  for (const s of stories.filter((x) => x.outlet_count > 1)) {
    lines.push(`  ${String(s.outlet_count).padStart(2)} outlets  ${s.headline ?? s.story_id}`);
    for (const o of s.outlets) {
      const delay = o.delay_seconds === 0 ? "first" : `+${duration(o.delay_seconds)}`;
      lines.push(
        `              ${o.publication.padEnd(22)} ${delay.padStart(12)}   ${o.copies[0]?.url ?? ""}`,
      );
    }
  }
  return lines;
}

/** The demo web's port: a fixed one, or 0 for any free one. */
function portOf(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65_535)
    throw new InputError(`--port must be a port number from 0 to 65535, got "${value}"`);
  return n;
}

async function demo(opts: DemoOptions): Promise<void> {
  const envClockStart = clockStartFromEnv();
  const anchor = anchorOf(opts.at, envClockStart);
  const clockStart = opts.at ? anchor.toISOString() : envClockStart;
  const port = portOf(opts.port);
  // Every STORYTRAIL_* setting in the environment reaches the functions, as `crawl`'s do (e.g. a
  // shorter STORYTRAIL_HOT_DAYS for a run over days).
  const settings = functionSettings(
    process.env,
    { STORYTRAIL_MIN_HOST_DELAY_MS: "50", STORYTRAIL_RAW_SAMPLE_RATE: "1" },
    {
      STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
      // The functions read the web's clock: with `--at` a day long past is still news to them.
      ...(clockStart ? { STORYTRAIL_NOW: clockStart } : {}),
    },
  );
  const dataDir = claimRunFolder(opts.dataDir, "demo");
  const [
    { startDemoWeb },
    { startEmulators },
    { LocalRuntime },
    { saveSamples },
    { DynamoDatasetReader },
    { writeReport },
    { restoreQueues, saveQueues },
    { archiveLocalRun, archiveSummary },
    { DemoWebHistoryError, demoWebFirstDay },
  ] = await Promise.all([
    import("../../infra/local/demo-web/server"),
    import("../../infra/local/emulators"),
    import("../../infra/local/runtime"),
    import("../../infra/local/sample-persistence"),
    import("../../shared/aws/dataset-reader"),
    import("./report"),
    import("../../infra/local/queue-persistence"),
    import("../../infra/local/archive-run"),
    import("../../infra/local/demo-web/web-history"),
  ]);
  let firstDay: string;
  try {
    // The web a folder's earlier runs met, grown by the days since (one site over consecutive days).
    firstDay = demoWebFirstDay(dataDir, anchor.toISOString().slice(0, 10));
  } catch (err) {
    throw err instanceof DemoWebHistoryError ? new InputError(err.message) : err;
  }
  const reportFile = resolve(opts.report ?? join(dataDir, "report.html"));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const started = Date.now();
  // Each step's wall seconds, for `--json` (what a run over many days watches grow).
  const phases: Record<string, number> = {};
  const timed = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await step();
    } finally {
      phases[name] = (phases[name] ?? 0) + (performance.now() - t0) / 1000;
    }
  };
  const web = await startDemoWeb({ port, anchor, firstDay });
  log(
    `demo web: ${web.outlets.length} hosts on ${web.outlets[0]?.origin.replace(/\/\/[\d.]+:/, "//127.0.0.10-19:")}`,
  );
  let emulators: Awaited<ReturnType<typeof startEmulators>> | undefined;
  const stop = stopOnSignals(() => emulators?.killNow(), log);
  emulators = await timed("emulators", () => startEmulators({ dynamoPath: join(dataDir, "dynamodb") }));
  try {
    const runtime = await timed("runtime", () =>
      LocalRuntime.start({
        endpoints: emulators.endpoints,
        prefix: LOCAL_PREFIX,
        // Loopback and explicitly local: a short pause per host keeps the demo under a minute.
        retryDelaySeconds: 1,
        settings,
      }),
    );
    const samplesDir = join(dataDir, "s3");
    // Work a stopped demo left queued is done by this run (its Frontier items wait for it).
    const queuesDir = join(dataDir, "sqs");
    await timed("restore", () => restoreQueues(runtime.clients.sqs, runtime.resources.queueUrls, queuesDir));
    // What DynamoDB's TTL would have deleted by the run's clock goes first (ttl-sweeper.ts).
    await timed("ttl_sweep", () => runtime.sweepExpired(clockFrom(clockStart)()));
    const runId = `demo-${new Date().toISOString().replace(/\.\d+Z$/, "Z")}`;
    log("crawling …");
    const discovery = await timed("discover", () =>
      settleOrAbandon(
        runtime.discover({ sources: web.sources, run_id: runId }, { signal: stop.signal }),
        stop.signal,
      ),
    );
    await timed("fetch_and_dedup", () => runtime.drain({ signal: stop.signal }));
    if (discovery === ABANDONED || stop.signal.aborted) {
      // Stopped: what is left waits in the folder for the next demo, and there is no report.
      await saveQueues(runtime.clients.sqs, runtime.resources.queueUrls, queuesDir);
      await saveSamples(runtime.clients.s3, runtime.resources.buckets.raw, samplesDir);
      await runtime.close();
      return;
    }
    const counts = await runtime.runCounts(runId);
    await timed("save", () => saveSamples(runtime.clients.s3, runtime.resources.buckets.raw, samplesDir));
    // The days before the clock's are complete: into DIR/dataset/, then their hot window starts.
    const archived = archiveSummary(await timed("archive", () => archiveLocalRun(runtime, dataDir, runId)));
    if (archived) log(archived);
    const { tables } = runtime.resources;
    const source = new DynamoDatasetReader(runtime.clients.doc, tables);
    const { dataset, data } = await timed("report", () => writeReport(source, reportFile));
    // For machines: the hot tables' sizes after the run (what a run over many days watches).
    const tableItems: Record<string, number> = {};
    if (opts.json)
      for (const t of Object.keys(tables) as (keyof typeof tables)[])
        tableItems[t] = (await runtime.items(t)).length;
    await runtime.close();
    const multi = dataset.stories.filter((s) => s.outlet_count > 1);
    const outlets = web.outlets.length;
    const summary = `demo: served ${outlets} outlets (a wire service and ${outlets - 1} papers, ${web.requests()} requests); claimed ${counts.claimed} URLs: ${counts.articles} fetched as ${counts.distinct_articles} articles, ${counts.failed} failed ${JSON.stringify(counts.failure_reasons)}; ${dataset.stories.length} stories, ${multi.length} carried by 2+ outlets; ${((Date.now() - started) / 1000).toFixed(1)} s`;
    if (opts.json) {
      process.stdout.write(
        `${JSON.stringify({ summary, outlets, web: web.days, counts, table_items: tableItems, phase_seconds: phases, sources: discovery.sources, stories: dataset.stories, report: reportFile }, null, 2)}\n`,
      );
    } else {
      const lines = [
        multi.length
          ? "stories carried by more than one outlet (delay after the first publication):"
          : "no story was carried by more than one outlet this time",
        ...storyTable(dataset.stories),
        `  … and ${dataset.stories.length - multi.length} stories carried by one outlet`,
        summary,
        `report: ${reportFile} (${data.totals.stories} stories)`,
        `the run's folder: ${opts.dataDir} (storytrail export, report, tail and quality read it with --data-dir ${opts.dataDir})`,
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
    }
  } finally {
    await emulators.stop();
    await web.close();
    stop.dispose();
    const received = stop.received();
    if (received) {
      log(`stopped by ${received}`);
      // Now, not when the requests let go of time out: the process's exit ends them.
      process.exit(SIGNAL_EXIT_CODES[received]);
    }
  }
}
