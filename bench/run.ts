/**
 * `npm run bench [-- --only extract|minhash|dedup|discover|pipeline|cost|compression|bundles|load|memory|scale|dedup-scale|backfill|archive|days] [-- --quick]`
 * (cost's `--months N`: the monthly bill of month 1 and month N, default 12, bench/cost-over-time-report.ts;
 * scale's inputs: `--sources --articles --zipf --max-host-pages --delay-ms ...`, bench/scale.ts;
 * days: `--days N`, default 30: `storytrail demo --at` on N consecutive days into one folder, bench/demo-days.ts;
 * `--hot-days N`: the runs' STORYTRAIL_HOT_DAYS (default the environment's, else 30);
 * backfill's `--backfill-repeat N`: the WARC's pages N times, `--backfill-runs N`: alternate runs, medians
 * reported (default 3), bench/backfill-e2e.ts):
 * every benchmark in one run on this machine; prints tables and writes bench/results.json. Method and
 * latest figures: docs/benchmarks.md. Ratios are the headline: absolute rates depend on the machine.
 */
import { execSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { deploySettings } from "../infra/deploy-settings";
import { topology } from "../infra/topology";
import { DEFAULT_LSH_RETENTION_DAYS } from "../shared/config/crawl-settings";

// The handlers' loggers read these at import (pipeline.ts is imported below, after them): INFO is
// the deployed default, so log volume and its CPU are what Lambda would see.
process.env.POWERTOOLS_LOG_LEVEL = "INFO";
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

const SECTIONS = [
  "extract",
  "minhash",
  "dedup",
  "dedup-scale",
  "backfill",
  "discover",
  "pipeline",
  "cost",
  "compression",
  "bundles",
  "load",
  "memory",
  "scale",
  "archive",
  "days",
] as const;
type Section = (typeof SECTIONS)[number];

const { SCALE_FLAGS } = await import("./scale");
const { values } = parseArgs({
  options: {
    only: { type: "string", multiple: true },
    quick: { type: "boolean", default: false },
    "backfill-repeat": { type: "string", default: "1" },
    "backfill-runs": { type: "string", default: "3" },
    months: { type: "string", default: "12" },
    days: { type: "string", default: "30" },
    "hot-days": { type: "string" },
    ...SCALE_FLAGS,
  },
});
const only = (values.only ?? []).flatMap((s) => s.split(",")) as Section[];
for (const s of only)
  if (!SECTIONS.includes(s)) throw new Error(`--only ${s}: one of ${SECTIONS.join(", ")}`);
const want = (s: Section) => only.length === 0 || only.includes(s);
const months = Number(values.months);
if (!Number.isInteger(months) || months < 1) throw new Error("--months: a whole number of at least 1");
const quick = values.quick;

const { formatTable, ratio, sig } = await import("./table");
const log = (s: string) => process.stderr.write(`${s}\n`);
const print = (s: string) => process.stderr.write(`${s}\n\n`);
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  commit: execSync("git rev-parse --short HEAD", { cwd: path.resolve(import.meta.dirname, "..") })
    .toString()
    .trim(),
  node: process.version,
  cpu: `${cpus().length} × ${cpus()[0]?.model ?? "?"}`,
  quick,
};
const started = performance.now();

/** A fresh peak against the recorded one the function's size is derived from; past its headroom the bench fails. */
async function checkRecordedPeak(fn: "fetch" | "discover", peakMb: number): Promise<void> {
  const { currentNodeMajor, MEMORY_HEADROOM, recordedPeakMb, withinRecordedPeak } = await import(
    "../infra/memory-sizing"
  );
  const node = currentNodeMajor();
  const ok = withinRecordedPeak(fn, peakMb, node);
  log(
    `${fn} λ: peak ${sig(peakMb)} MB against the ${recordedPeakMb(fn, node)} MB recorded on Node ${node} × ${MEMORY_HEADROOM}: ${ok ? "within" : "OVER: re-measure, update infra/memory-sizing.ts (and the size it gives)"}`,
  );
  if (!ok) process.exitCode = 1;
}

if (want("extract")) {
  log("extraction …");
  const { benchExtraction } = await import("./extract-speed");
  const r = benchExtraction(quick ? 1 : 3);
  results.extract = r;
  print(
    `Extraction: ${r.pages} AEB dev pages in memory (${r.meanKb.toFixed(0)} KB mean), one core\n${formatTable(
      ["extractor", "pages/CPU-s", "pages/s wall", "vs storytrail"],
      r.rows.map((x) => [x.name, sig(x.pagesPerCpuSecond), sig(x.pagesPerSecond), ratio(x.vsStorytrail)]),
    )}\nstorytrail alone in a fresh process (bench/extract-alone.ts, median of rounds, wall): ${sig(r.alone.extract)} pages/s (target ≥ 250); htmlparser2 parse alone ${sig(r.alone.parse)} pages/s`,
  );
}

if (want("minhash")) {
  log("minhash …");
  const { benchMinhash } = await import("./minhash-speed");
  const r = benchMinhash(
    quick
      ? { texts: 1500, rounds: 1, slowTexts: 100, seedTexts: 10 }
      : { texts: 1500, rounds: 3, slowTexts: 300, seedTexts: 25 },
  );
  results.minhash = r;
  print(
    `MinHash: text → signature, dedup dev corpus (${r.meanWords.toFixed(0)} words mean), one core\n${formatTable(
      ["implementation", "perms", "articles/CPU-s", "articles/s wall", "vs storytrail signature"],
      r.rows.map((x) => [
        x.name,
        x.perms,
        sig(x.articlesPerCpuSecond),
        sig(x.articlesPerSecond),
        ratio(x.vsStorytrail),
      ]),
    )}`,
  );
}

if (want("dedup")) {
  log("dedup scale …");
  const { benchDedupScale } = await import("./dedup-cli-scale");
  const rows = await benchDedupScale(quick ? [10_000] : [10_000, 50_000, 100_000, 200_000], log);
  results.dedup = rows;
  print(
    `Dedup: \`storytrail dedup --input\` in a child process (/usr/bin/time -v)\n${formatTable(
      [
        "articles",
        "input MB",
        "wall s",
        "CPU s",
        "articles/s",
        "peak RSS MB",
        "CPU/article vs 10k",
        "RSS/article vs 10k",
      ],
      rows.map((x) => [
        x.articles,
        sig(x.inputMb),
        sig(x.wallSeconds),
        sig(x.cpuSeconds),
        sig(x.articlesPerSecond),
        sig(x.peakRssMb),
        ratio(x.timePerArticleVsFirst),
        ratio(x.rssPerArticleVsFirst),
      ]),
    )}`,
  );
}

if (want("dedup-scale")) {
  // One size only: the 1,000,000-article input alone is 2.7 GB (written once under out/bench/).
  const n = quick ? 100_000 : 1_000_000;
  log(`dedup at ${n} articles (load average ${loadavg()[0]?.toFixed(1)}) …`);
  const { benchDedupScale } = await import("./dedup-cli-scale");
  const [row] = await benchDedupScale([n], log);
  results.dedupScale = { ...row, loadAverage: loadavg()[0] };
  const ok = row && row.peakRssMb < 4096 && row.wallSeconds < 600;
  print(
    `Dedup at scale: \`storytrail dedup\` (state on disk) over ${n} synthetic articles: ${sig(row?.wallSeconds ?? 0)} s wall, ${sig(row?.cpuSeconds ?? 0)} s CPU, peak RSS ${sig(row?.peakRssMb ?? 0)} MB (targets < 600 s, < 4,096 MB: ${ok ? "met" : "NOT MET"}; load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores)`,
  );
}

if (want("backfill")) {
  log("backfill: storytrail extract against storytrail import on the same real pages …");
  const { benchBackfillE2e } = await import("./backfill-e2e");
  const repeat = Number(values["backfill-repeat"]);
  if (!Number.isInteger(repeat) || repeat < 1)
    throw new Error("--backfill-repeat: a whole number of at least 1");
  const runs = Number(values["backfill-runs"]);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--backfill-runs: a whole number of at least 1");
  const r = await benchBackfillE2e(log, repeat, runs);
  results.backfill = r;
  print(
    `Backfill: ${r.pages} real pages (${r.copies} syndicated copies), ${sig(r.warcMb)} MB WARC, ${r.cores} cores; load average ${r.loadBefore.toFixed(1)} → ${r.loadAfter.toFixed(1)}\n${formatTable(
      ["command", `seconds (median of ${r.runs.length})`, "pages/s"],
      [
        ["storytrail extract --input (one process)", sig(r.extractSeconds), sig(r.extractPagesPerSecond)],
        [
          `storytrail import (${r.articles} articles, ${r.errors} errors, peak RSS ${sig(r.importPeakRssMb)} MB; dedup, stories)`,
          sig(r.importSeconds),
          sig(r.importPagesPerSecond),
        ],
      ],
    )}\nimport ÷ (cores × extract) = ${r.ratio.toFixed(2)} (target ≥ 0.6); each pair: ${r.runs.map((x) => x.ratio.toFixed(2)).join(", ")}; CPU a page: extract ${sig(r.extractCpuMsPerPage)} ms, import ${sig(r.importCpuMsPerPage)} ms`,
  );
}

if (want("archive")) {
  const articles = quick ? 100_000 : 1_000_000;
  log(`archive: a synthetic day of ${articles.toLocaleString("en")} articles through the archive writer …`);
  const { benchArchive } = await import("./archive");
  const r = await benchArchive(articles);
  results.archive = r;
  print(
    `Archive: ${r.articles.toLocaleString("en")} articles (${r.stories.toLocaleString("en")} stories) of a synthetic day as Parquet (${r.codec}, ${r.files} files; Node ${r.node}) into a local folder\n${formatTable(
      ["what", "value"],
      [
        ["seconds", sig(r.seconds)],
        ["CPU seconds", sig(r.cpuSeconds)],
        [`peak RSS MB (the archive λ has ${r.functionMemoryMb})`, sig(r.maxRssMb)],
        ["GB of Parquet per million articles (target ≤ 2.5)", sig(r.gbPerMillion)],
        ["of which stories, MB", sig(r.storyBytes / 1e6)],
        [
          `5 M articles: CPU seconds, carried (the λ times out at ${r.functionTimeoutSeconds})`,
          sig(r.fiveMillion.seconds),
        ],
        ["5 M articles: GB", sig(r.fiveMillion.gb)],
      ],
    )}\n5 M in one invocation: ${r.fiveMillion.fitsOneInvocation ? "yes" : "no: shard the day (docs/scale.md, Archive)"}`,
  );
  // The same day in 4 shards, each step in its own process, as the state machine's invocations.
  const { benchArchiveSharded } = await import("./archive");
  const sharded = await benchArchiveSharded(articles, articles / 4);
  results.archiveSharded = sharded;
  print(
    `Archive in shards: ${articles.toLocaleString("en")} articles in shards of ${sharded.shardArticles.toLocaleString("en")}, each step in a fresh process (${sharded.codec}; Node ${sharded.node})\n${formatTable(
      ["step", "articles", "stories", "seconds", "CPU seconds", "peak RSS MB"],
      sharded.steps.map((s) => [
        s.step,
        s.articles.toLocaleString("en"),
        s.stories.toLocaleString("en"),
        sig(s.seconds),
        sig(s.cpuSeconds),
        sig(s.maxRssMb),
      ]),
    )}`,
  );
}

if (want("discover")) {
  log("discover memory …");
  const { benchDiscoverMemory } = await import("./discover-memory");
  const r = await benchDiscoverMemory();
  results.discover = r;
  print(
    `Discovery memory: a ${(r.bytes / 1e6).toFixed(1)} MB sitemap of 1.1 M entries, each row a fresh process (discover λ: ${topology.functions.discover.memoryMb} MB)\n${formatTable(
      ["what", "URLs kept", "ms", "peak RSS MB", "heap after MB"],
      r.rows.map((x) => [x.what, x.urls, x.ms, x.maxRssMb, x.heapAfterMb]),
    )}`,
  );
  const peak = Math.max(...r.rows.filter((x) => x.sizing).map((x) => x.maxRssMb));
  await checkRecordedPeak("discover", peak);
}

if (want("load")) {
  const { startEmulators } = await import("../infra/local/emulators");
  const { runLoad } = await import("./load");
  const [hosts, pagesPerHost] = quick ? [20, 50] : [100, 200];
  const minDelayMs = 1000;
  log(`load: ${hosts} hosts × ${pagesPerHost} pages, host delay ${minDelayMs} ms, 8 workers …`);
  const emulators = await startEmulators();
  try {
    const r = await runLoad({
      endpoints: emulators.endpoints,
      prefix: "load-",
      hosts,
      pagesPerHost,
      minDelayMs,
      workers: 8,
      log,
    });
    results.load = r;
    const c = r.counts;
    print(
      `Load: ${r.pages} pages on ${hosts} loopback hosts, 8 fetch + 8 dedup workers
${formatTable(
  [
    "claimed",
    "articles",
    "failed",
    "pending",
    "DLQ fetch/dedup",
    "wall s",
    "pages/s",
    "min gap per host ms",
    "fetch receives per page",
    "peak RSS MB",
    "dedup = serial",
  ],
  [
    [
      c.claimed,
      c.articles,
      c.failed,
      c.pending,
      `${c.dead_lettered.fetch}/${c.dead_lettered.dedup}`,
      sig(r.wallSeconds),
      sig(r.pages / r.wallSeconds),
      sig(r.minGapMs),
      sig(r.fetchReceives / r.pages),
      sig(r.peakRssMb),
      String(r.clustersEqualSerial),
    ],
  ],
)}
(host delay ${minDelayMs} ms; the gap is measured at each host's server; a page whose host is not due is put back
until its slot: ${r.putBacks} put-backs; load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores)`,
    );
  } finally {
    await emulators.stop();
  }
}

if (want("pipeline") || want("cost")) {
  const { startEmulators } = await import("../infra/local/emulators");
  const { runPipeline } = await import("./pipeline");
  log("starting emulators …");
  const emulators = await startEmulators();
  try {
    if (want("pipeline")) {
      const [outlets, per] = quick ? [4, 15] : [8, 40];
      log(`pipeline: ${outlets} outlets × ${per} pages …`);
      const r = await runPipeline({ endpoints: emulators.endpoints, outlets, articlesPerOutlet: per, log });
      results.pipeline = r;
      const f = r.functions;
      print(
        `Pipeline: local run, ${outlets} loopback outlets × ${per} pages (${r.counts.articles} articles, ${r.counts.clusters} clusters), concurrency fetch 4 / dedup 2\n${formatTable(
          ["stage", "invocations", "busy s (sum of handler time)", "span s", "ms per article"],
          (["discover", "fetch", "dedup"] as const).map((fn) => [
            fn,
            f[fn]?.invocations ?? 0,
            sig((f[fn]?.wallMs ?? 0) / 1000),
            sig((f[fn]?.spanMs ?? 0) / 1000),
            sig((f[fn]?.wallMs ?? 0) / r.counts.articles),
          ]),
        )}\nend to end: ${sig(r.wallMs / 1000)} s, ${sig(r.pagesPerSecond)} pages/s`,
      );
    }
    if (want("cost")) {
      const { costBreakdown, designFloor, totalUsd, sensitivity, invocationMs } = await import(
        "./cost-model"
      );
      const { meteredRun } = await import("./metered-run");
      const metered = await meteredRun(emulators.endpoints, quick, log);
      const { obs, defaults, observedFetchBatch } = metered;
      const lines = costBreakdown(obs, defaults);
      const total = totalUsd(lines);
      const alternatives = sensitivity(obs, defaults, [
        { label: "host delay 0 ms (pace hosts outside Lambda)", change: { minHostDelayMs: 0 } },
        { label: "host delay 2000 ms", change: { minHostDelayMs: 2000 } },
        { label: "fetch memory 512 MB", change: { memoryMb: { fetch: 512 } } },
        { label: "fetch memory 1769 MB", change: { memoryMb: { fetch: 1769 } } },
        { label: "dedup memory 1024 MB", change: { memoryMb: { dedup: 1024 } } },
        { label: "LSH 16×4 + 4×4 lede bands (the layout before)", change: { lshBandsTotal: 20 } },
        { label: "LSH 6×3 + 3×3 lede bands", change: { lshBandsTotal: 9 } },
        {
          label: "LSH entries kept 12 months, storage 12 months",
          change: { storageMonths: 12, lshRetentionMonths: 12 },
        },
        { label: "raw samples 100 %", change: { rawSampleRate: 1 } },
        { label: "raw samples 0 %", change: { rawSampleRate: 0 } },
        { label: "log level WARN", change: { logLevel: "WARN" } },
        { label: "X-Ray active tracing on", change: { tracing: true } },
        { label: "page latency 800 ms", change: { pageLatencyMs: 800 } },
        {
          label: `storage kept 12 months (LSH entries ${DEFAULT_LSH_RETENTION_DAYS / 30})`,
          change: { storageMonths: 12 },
        },
      ]);
      const durations = Object.fromEntries(
        Object.keys(obs.functions).map((fn) => [fn, invocationMs(fn, obs, defaults)]),
      );
      const floorLines = designFloor(obs, defaults);
      const floorTotal = totalUsd(floorLines);
      const floorByBands = [...new Set([4, 6, 8, defaults.lshBandsTotal])]
        .sort((a, b) => a - b)
        .map((bands) => ({
          bands,
          usdPerMillion: totalUsd(designFloor(obs, { ...defaults, lshBandsTotal: bands })),
        }));
      results.cost = {
        observed: obs,
        requestCounts: metered.requestCounts,
        defaults,
        durations,
        lines,
        total,
        alternatives,
        floor: { lines: floorLines, total: floorTotal, byBands: floorByBands },
      };
      const byService = new Map<string, number>();
      for (const l of lines) byService.set(l.service, (byService.get(l.service) ?? 0) + l.usd);
      const costTable = (ls: typeof lines) =>
        formatTable(
          ["service", "item", "quantity per M articles", "unit", "USD per M"],
          ls.map((l) => [l.service, l.item, sig(l.quantity), l.unit, `$${l.usd.toFixed(2)}`]),
        );
      const d = defaults;
      const settingsText = `host delay ${d.minHostDelayMs / 1000} s, page latency ${d.pageLatencyMs} ms assumed, raw samples ${d.rawSampleRate * 100} %, ${d.lshBandsTotal} LSH bands, ${d.logLevel} logs, ${d.storageMonths} month of storage`;
      // What issue 26's decisions add to the floor, each at its least (bench/fixed-decisions-bound.ts).
      const { fixedDecisionsBound } = await import("./fixed-decisions-bound");
      const boundLines = fixedDecisionsBound(obs, defaults);
      const boundTotal = totalUsd(boundLines);
      print(
        `Cost per million articles, us-east-1 list prices (metered local run: ${obs.articles} articles; defaults: ${settingsText}; load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores)\n${costTable(lines)}\n${[...byService].map(([s, u]) => `${s} $${u.toFixed(2)}`).join(" · ")}\nTOTAL $${total.toFixed(2)} per million articles, ${(total / floorTotal).toFixed(2)}× the floor; BOUND under issue 26's decisions $${boundTotal.toFixed(2)}, total ÷ bound ${(total / boundTotal).toFixed(2)} (issue 26's targets: ≤ $18 on demand, ≤ 1.35× the bound)`,
      );
      // Looking again at articles whose source gives no lastmod (issue 41, bench/recheck-cost.ts).
      const { recheckReport } = await import("./recheck-cost");
      const recheck = recheckReport(obs, defaults);
      results.costRecheck = recheck.results;
      print(recheck.text);
      // Beside the per-article figure: what the stack costs a month whatever it crawls (bench/fixed-costs.ts).
      const { fixedMonthlyLines, stackFixedMonthly } = await import("./fixed-costs");
      const { monthlyUsd: monthlyUsdAt } = await import("./provisioned-capacity");
      const fixedLines = fixedMonthlyLines(stackFixedMonthly());
      results.costFixedMonthly = { lines: fixedLines, total: totalUsd(fixedLines) };
      print(
        `Fixed a month, whatever the crawl\n${formatTable(
          ["service", "item", "quantity", "unit", "USD a month"],
          fixedLines.map((l) => [l.service, l.item, sig(l.quantity), l.unit, `$${l.usd.toFixed(2)}`]),
        )}\nFIXED $${totalUsd(fixedLines).toFixed(2)} a month (a month at 200,000 articles a day: $${(monthlyUsdAt(total, 200_000) + totalUsd(fixedLines)).toFixed(0)})`,
      );
      print(
        `Sensitivity (one setting changed at a time, sorted by effect)\n${formatTable(
          ["setting", "USD per M", "change"],
          alternatives.map((a) => [
            a.label,
            `$${a.usdPerMillion.toFixed(2)}`,
            `${a.deltaUsd >= 0 ? "+" : ""}$${a.deltaUsd.toFixed(2)}`,
          ]),
        )}`,
      );
      print(
        `Design floor (what every article costs in this design however it is coded: its writes, one look-up per band, its storage, two queue passages, the wait for its page; everything else counted as free)\n${costTable(floorLines)}\n\n${formatTable(
          ["LSH bands", "floor USD per M"],
          floorByBands.map((b) => [b.bands, `$${b.usdPerMillion.toFixed(2)}`]),
        )}\nFLOOR $${floorTotal.toFixed(2)} per million articles at ${defaults.lshBandsTotal} bands`,
      );
      results.costBound = { lines: boundLines, total: boundTotal };
      print(
        `The least under issue 26's decisions (daily burst, on demand: the floor with its page wait at 128 MB, plus what the Hosts lease, recorded outcomes, unchanged dedup and the LSH index in DynamoDB cost every article at their least; pacing out of the function)\n${costTable(boundLines)}\nBOUND $${boundTotal.toFixed(2)} per million articles (the total is ${(total / boundTotal).toFixed(2)}× it; target ≤ 1.35×)`,
      );
      // Capacity modes and the fetch batch (issue 15): the default beside a steady crawl on provisioned tables.
      const { scenarioCost, designChangeSavings, steadyFetchBatch } = await import("./cost-scenarios");
      const { MAX_CONCURRENT_HOSTS } = await import("../lambdas/fetch");
      const capacity = deploySettings({ capacity_mode: "provisioned" }).capacity;
      if (capacity.mode !== "provisioned") throw new Error("provisioned capacity expected");
      const ARTICLES_PER_DAY = 200_000;
      const daily = { label: "on demand, daily burst (default)", settings: defaults };
      const steadySettings = { ...defaults, fetchBatch: steadyFetchBatch(MAX_CONCURRENT_HOSTS) };
      const steady = {
        label: "provisioned, steady crawl",
        settings: steadySettings,
        provisioned: {
          targetUtilization: capacity.target_utilization_percent / 100,
          articlesPerDay: ARTICLES_PER_DAY,
          minUnitsPerTable: capacity.write_min,
        },
      };
      const scenarios = [daily, { label: "on demand, steady crawl", settings: steadySettings }, steady].map(
        (sc) => scenarioCost(obs, sc, ARTICLES_PER_DAY),
      );
      const savings = designChangeSavings(obs, daily, steady);
      results.costScenarios = { scenarios, savings, articlesPerDay: ARTICLES_PER_DAY };
      print(
        `Capacity modes (fetch batches of ${obs.fetchBatchSize} messages (${observedFetchBatch.toFixed(1)} in the local run), ${MAX_CONCURRENT_HOSTS} hosts at once; steady crawl: about one page per host in a batch, provisioned at ${capacity.target_utilization_percent} % with a minimum of ${capacity.write_min} unit per table)\n${formatTable(
          ["", ...scenarios.map((x) => x.label)],
          [
            ["USD per M articles", ...scenarios.map((x) => `$${x.total.toFixed(2)}`)],
            ["floor USD per M", ...scenarios.map((x) => `$${x.floor.toFixed(2)}`)],
            ["total ÷ floor", ...scenarios.map((x) => `${x.ratio.toFixed(2)}×`)],
            [
              `a month at ${ARTICLES_PER_DAY.toLocaleString("en")} articles a day`,
              ...scenarios.map((x) => `$${x.monthly.toFixed(0)}`),
            ],
          ],
        )}\n\nEach change on its own (USD saved per million articles)\n${formatTable(
          ["change", "saved per M"],
          savings.map((x) => [x.label, `$${x.usd.toFixed(2)}`]),
        )}\nissue 26's targets: on demand, daily burst ≤ $18; provisioned, steady crawl ≤ $10`,
      );
      // Backfill: dollars per million archived records (bench/backfill-cost.ts).
      const { backfillCostLines, CC_NEWS_ASSUMED, measureWarcReadMs } = await import("./backfill-cost");
      const assumed = { ...CC_NEWS_ASSUMED, readMsPerRecord: await measureWarcReadMs() };
      const backfillLines = backfillCostLines(obs, defaults, assumed);
      const backfillTotal = totalUsd(backfillLines);
      const fewer = totalUsd(backfillCostLines(obs, defaults, { ...assumed, articlesPerRecord: 0.3 }));
      results.cost = {
        ...(results.cost as object),
        backfill: { assumed, lines: backfillLines, total: backfillTotal },
      };
      print(
        `Backfill cost per million archived records (deployed Distributed Map; CC-NEWS assumed: ${assumed.recordsPerFile} records per ${assumed.bytesPerFile / 1e9} GB file, ${assumed.articlesPerRecord} articles per record; WARC read measured ${assumed.readMsPerRecord.toFixed(2)} ms/record)\n${formatTable(
          ["service", "item", "quantity per M records", "unit", "USD per M"],
          backfillLines.map((l) => [l.service, l.item, sig(l.quantity), l.unit, `$${l.usd.toFixed(2)}`]),
        )}\nBACKFILL $${backfillTotal.toFixed(2)} per million archived records ($${fewer.toFixed(2)} at 0.3 articles per record; add $0.02/GB, ~$${((0.02 * assumed.bytesPerFile) / 1e9 / (assumed.recordsPerFile / 1e6)).toFixed(2)} per M records, when the stack is outside us-east-1, Common Crawl's region)`,
      );
      // The bill over months (issue 40): today's design against the lifecycle, the archive's bytes measured.
      const { measureArchiveBytes } = await import("./archive-bytes");
      const { costOverTimeReport } = await import("./cost-over-time-report");
      log("archive: Parquet bytes per article …");
      const archive = await measureArchiveBytes(quick ? 20_000 : 100_000);
      const overTime = costOverTimeReport(obs, defaults, archive, months, DEFAULT_LSH_RETENTION_DAYS);
      const { text: overTimeText, ...overTimeFigures } = overTime;
      results.costOverTime = overTimeFigures;
      print(overTimeText);
    }
  } finally {
    await emulators.stop();
  }
}

if (want("compression")) {
  log("body compression (extracting every evaluation page) …");
  const { bodyCompressionReport } = await import("./body-compression");
  const r = bodyCompressionReport();
  results.compression = r.figures;
  print(r.text);
}

if (want("bundles")) {
  log("bundles …");
  const { benchBundles } = await import("./bundles");
  const rows = await benchBundles(quick ? 3 : 5);
  results.bundles = rows;
  print(
    `Lambda bundles (esbuild as in infra/stack.ts; init = import in a fresh Node process, median of ${quick ? 3 : 5}; targets < 1 MiB, < 300 ms)\n${formatTable(
      ["function", "KiB", "< 1 MiB", "init ms", "< 300 ms", "largest packages"],
      rows.map((x) => [
        x.fn,
        sig(x.bytes / 1024),
        x.bytes < 1024 * 1024 ? "yes" : "NO",
        sig(x.initMsMedian),
        x.initMsMedian < 300 ? "yes" : "NO",
        x.top.map((t) => `${t.pkg} ${Math.round(t.bytes / 1024)}K`).join(", "),
      ]),
    )}`,
  );
}

if (want("memory")) {
  log("memory at the caps …");
  const { measureAtCaps, memoryTable } = await import("./memory-at-caps");
  const rows = await measureAtCaps();
  results.memory = rows;
  print(memoryTable(rows));
  await checkRecordedPeak("fetch", Math.max(...rows.map((r) => r.peakMb)));
}

if (want("scale")) {
  const { startEmulators } = await import("../infra/local/emulators");
  const { meteredRun } = await import("./metered-run");
  const { scaleReport } = await import("./scale-report");
  const { doneWhen, runScale, scaleOptions } = await import("./scale");
  const o = scaleOptions(values);
  const emulators = await startEmulators();
  try {
    const metered = await meteredRun(emulators.endpoints, quick, log);
    log(
      `scale: ${o.articles.toLocaleString("en")} articles from ${o.sources.toLocaleString("en")} sources …`,
    );
    const { hostSizes, runs } = runScale(metered.obs, metered.defaults, o);
    const checks = doneWhen(runs);
    print(scaleReport(o, hostSizes, runs, checks));
    results.scale = {
      options: o,
      runs: runs.map(({ sim, ...r }) => ({
        ...r,
        sim: {
          ...sim,
          fetchedPerSecond: undefined,
          dedupedPerSecond: undefined,
          syndicatedPerSecond: undefined,
        },
      })),
      checks,
    };
    if (checks.some((c) => !c.ok)) process.exitCode = 1;
  } finally {
    await emulators.stop();
  }
}

if (want("days")) {
  const days = quick ? 7 : Number(values.days);
  if (!Number.isInteger(days) || days < 1) throw new Error("--days: a whole number of at least 1");
  const hotDays = values["hot-days"] === undefined ? undefined : Number(values["hot-days"]);
  if (hotDays !== undefined && (!Number.isInteger(hotDays) || hotDays < 1))
    throw new Error("--hot-days: a whole number of at least 1");
  log(`days: storytrail demo on ${days} consecutive days into one folder …`);
  const { benchDemoDays } = await import("./demo-days");
  const r = await benchDemoDays(days, log, hotDays);
  results.days = r.results;
  print(r.text);
  if (!r.ok) process.exitCode = 1;
}

results.totalSeconds = (performance.now() - started) / 1000;
const file = path.resolve(import.meta.dirname, "results.json");
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
log(`done in ${(results.totalSeconds as number).toFixed(0)} s; wrote ${path.relative(process.cwd(), file)}`);
