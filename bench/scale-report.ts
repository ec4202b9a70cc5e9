/** The scale bench's printed report (bench/scale.ts runs it; docs/scale.md reads it). */
import { perSourceMetricsMonthly } from "./fixed-costs";
import type { ScaleOptions, ScaleRun } from "./scale";
import { formatTable, sig } from "./table";

function peak(xs: readonly number[]): number {
  let m = 0;
  for (const x of xs) if (x > m) m = x;
  return m;
}

const hours = (s: number) => `${(s / 3600).toFixed(1)} h`;
const usd = (x: number) => `$${x.toFixed(2)}`;

export function scaleReport(
  o: ScaleOptions,
  hostSizes: readonly number[],
  runs: readonly ScaleRun[],
  checks: readonly { check: string; ok: boolean }[],
): string {
  const q = (p: number) => hostSizes[Math.floor((1 - p) * (hostSizes.length - 1))] ?? 0;
  const spread = `pages per host (Zipf ${o.zipf}, at most ${o.maxHostPages}): largest ${hostSizes[0]}, p99 ${q(0.99)}, p90 ${q(0.9)}, median ${q(0.5)}, smallest ${hostSizes.at(-1)}; ${hostSizes.filter((s) => s > 1000).length} hosts over 1,000`;
  const head = `Scale: ${o.articles.toLocaleString("en")} articles a day from ${o.sources.toLocaleString("en")} sources, host delay ${o.delayMs} ms, page latency ${o.latencyMs} ms, fetch concurrency ${o.fetchConcurrency}, dedup ${o.dedupConcurrency}; burst: discovery over ${o.discoveryMinutes} min; steady: a run every ${o.steadyMinutes} min\n${spread}`;
  const main = formatTable(
    ["", ...runs.map((r) => r.mode)],
    [
      ["all pages fetched after", ...runs.map((r) => hours(r.sim.fetchedAllS))],
      ["all deduplicated after", ...runs.map((r) => hours(r.sim.dedupedAllS))],
      ["longest wait in the fetch queue", ...runs.map((r) => hours(r.sim.fetchMaxWaitS))],
      // A steady crawl's last runs find pages near midnight: only the burst's count means anything.
      ["hosts finishing after 24 h", ...runs.map((r) => (r.mode === "burst" ? r.sim.hostsPast24h : "–"))],
      [
        "peak concurrency fetch / dedup",
        ...runs.map((r) => `${r.sim.peakConcurrency.fetch} / ${r.sim.peakConcurrency.dedup}`),
      ],
      ["peak pages fetched a second", ...runs.map((r) => sig(peak(r.sim.fetchedPerSecond)))],
      [
        "dedup queue peak / longest wait",
        ...runs.map((r) => `${r.sim.dedupQueuePeak} / ${sig(r.sim.dedupMaxWaitS)} s`),
      ],
      ["fetch messages in flight, peak", ...runs.map((r) => r.sim.inFlightPeak)],
      [
        "fetch invocations / receives a page",
        ...runs.map((r) => `${r.sim.fetchInvocations} / ${sig(r.sim.receivesPerPage)}`),
      ],
      [
        "early deliveries / put-backs a page",
        ...runs.map(
          (r) =>
            `${sig(r.sim.earlyDeliveries / Math.max(1, r.sim.pages))} / ${sig(r.sim.putBacks / Math.max(1, r.sim.pages))}`,
        ),
      ],
      ["a page's longest time from discovery to its request", ...runs.map((r) => hours(r.sim.oldestPageS))],
      ["cost of the day", ...runs.map((r) => usd(r.cost.dayUsd))],
      ["  of which fixed (a day's share of the month)", ...runs.map((r) => usd(r.cost.fixedPerDayUsd))],
      [
        "USD per M at this scale / metered run",
        ...runs.map((r) => `${usd(r.cost.perMillionAtScale)} / ${usd(r.cost.perMillionMetered)}`),
      ],
      ["simulated in", ...runs.map((r) => `${r.simSeconds.toFixed(1)} s (${r.sim.events} events)`)],
    ],
  );
  const limits = runs
    .map(
      (r) =>
        `${r.mode}: limits\n${formatTable(
          ["what", "load from", "demand", "limit", "unit", "use"],
          r.limits.map((l) => [
            l.what,
            l.key,
            sig(l.demand),
            l.limit,
            l.unit,
            `${((100 * l.demand) / l.limit).toFixed(0)} %${l.demand > l.limit ? " OVER" : ""}`,
          ]),
        )}`,
    )
    .join("\n\n");
  const burst = runs.find((r) => r.mode === "burst") ?? runs[0];
  const fixed = burst
    ? `Monthly fixed costs\n${formatTable(
        ["service", "item", "quantity", "unit", "USD a month"],
        burst.cost.fixedMonthlyLines.map((l) => [l.service, l.item, sig(l.quantity), l.unit, usd(l.usd)]),
      )}\n(with a source_id dimension on five metrics, as before this design: ${(5 * o.sources).toLocaleString("en")} metrics, ${usd(perSourceMetricsMonthly(o.sources))} a month)`
    : "";
  const done = `Done when\n${checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.check}`).join("\n")}`;
  return [head, main, limits, fixed, done].join("\n\n");
}
