/**
 * The custom metrics the stack's alarms and dashboard watch are the ones the functions emit: a crawl of
 * the demo site on the local runtime, with Powertools Metrics on, prints EMF documents carrying every
 * metric shared/config/metrics.ts declares for discover, fetch and dedup.
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { type DemoSite, startDemoSite } from "../../infra/local/demo-site";
import { LocalRuntime } from "../../infra/local/runtime";
import {
  dedupMetrics,
  discoverMetrics,
  fetchMetrics,
  METRICS_NAMESPACE,
  metricService,
} from "../../shared/config/metrics";
import { uniquePrefix } from "../support/unique-prefix";

interface Emf {
  _aws: { CloudWatchMetrics: { Namespace: string; Metrics: { Name: string }[] }[] };
  service?: string;
  [key: string]: unknown;
}

describe("metrics the functions emit", () => {
  let site: DemoSite;
  let runtime: LocalRuntime;
  const documents: Emf[] = [];

  beforeAll(async () => {
    // Powertools reads this when a handler is made; the suite turns metrics off everywhere else.
    vi.stubEnv("POWERTOOLS_METRICS_DISABLED", "false");
    const write = process.stdout.write.bind(process.stdout);
    vi.spyOn(process.stdout, "write").mockImplementation((chunk, ...rest) => {
      for (const line of String(chunk).split("\n")) {
        if (line.startsWith('{"_aws"') || line.includes('"_aws":')) {
          try {
            documents.push(JSON.parse(line) as Emf);
          } catch {
            // not a metrics document: print it
          }
        }
      }
      return write(chunk, ...(rest as []));
    });
    site = await startDemoSite();
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("metrics"),
      settings: { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true", STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
    });
    await runtime.discover({ sources: site.sources, run_id: "metrics-1" });
    await runtime.drain();
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    await runtime?.close();
    await site?.close();
  });

  const emitted = (service: string): Set<string> =>
    new Set(
      documents
        .filter((d) => d.service === service)
        .flatMap((d) => d._aws.CloudWatchMetrics.filter((m) => m.Namespace === METRICS_NAMESPACE))
        .flatMap((m) => m.Metrics.map((x) => x.Name)),
    );

  it("discover emits what it declares", () => {
    expect([...emitted(metricService.discover)].sort()).toEqual(Object.values(discoverMetrics).sort());
  });

  it("fetch emits its outcomes and per-source article counts", () => {
    expect([...emitted(metricService.fetch)].sort()).toEqual(Object.values(fetchMetrics).sort());
    const outcomes = documents.filter((d) => d.service === metricService.fetch && d.outcome !== undefined);
    expect(new Set(outcomes.map((d) => d.outcome))).toContain("article");
  });

  it("dedup emits new stories and joined copies (the demo's wire story is syndicated)", () => {
    const names = emitted(metricService.dedup);
    expect(names).toContain(dedupMetrics.newStories);
    expect(names).toContain(dedupMetrics.joined);
  });
});
