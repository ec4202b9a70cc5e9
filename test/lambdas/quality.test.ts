/** The quality λ on DynamoDB Local: three normal days build a history, a broken template alarms. */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { LocalRuntime } from "../../infra/local/runtime";
import type { QualityReport } from "../../lambdas/quality";
import { metricService, qualityMetrics, SOURCE_PROPERTY } from "../../shared/config/metrics";
import { uniquePrefix } from "../support/unique-prefix";

describe("quality λ", () => {
  let runtime: LocalRuntime;
  beforeAll(async () => {
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix("quality") });
  });
  afterAll(async () => runtime?.close());

  /** The metrics (EMF) documents printed while `run` runs, with Powertools Metrics on. */
  const emfOf = async (run: () => Promise<unknown>): Promise<Record<string, unknown>[]> => {
    vi.stubEnv("POWERTOOLS_METRICS_DISABLED", "false");
    const printed: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      printed.push(...String(chunk).split("\n"));
      return true;
    });
    try {
      await run();
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
    }
    return printed.filter((l) => l.includes('"_aws":')).map((l) => JSON.parse(l));
  };

  const putDay = async (dayIso: string, words: number, dated: boolean) => {
    for (let i = 0; i < 12; i++) {
      await runtime.clients.doc.send(
        new PutCommand({
          TableName: runtime.resources.tables.articles,
          Item: {
            article_id: `${dayIso}-${i}`,
            url: `https://bugle.example/${dayIso}/story-${i}`,
            source_id: "daily-bugle",
            word_count: words + i,
            published_at: dated ? `${dayIso}T08:00:00.000Z` : null,
            collected_at: `${dayIso}T12:00:00.000Z`,
            collected_day: dayIso,
          },
        }),
      );
    }
  };

  it("builds a per-source history and reports a sudden drop", async () => {
    const reports: QualityReport[] = [];
    for (const d of ["2026-11-26", "2026-11-27", "2026-11-28"]) {
      await putDay(d, 500, true);
      reports.push((await runtime.invoke("quality", { at: `${d}T23:00:00.000Z` })) as QualityReport);
    }
    expect(reports.every((r) => r.findings.length === 0)).toBe(true);
    expect(reports[2]?.sources["daily-bugle"]).toMatchObject({ articles: 12, valid_date_share: 1 });
    // The per-publisher figures the dashboard draws, each under its source; the drops, alarmed, without.
    const docs = await emfOf(() => runtime.invoke("quality", { at: "2026-11-28T23:00:00.000Z" }));
    const source = docs.find((d) => d[SOURCE_PROPERTY] === "daily-bugle");
    expect(source).toMatchObject({
      service: metricService.quality,
      [qualityMetrics.articles]: 12,
      [qualityMetrics.validDateShare]: 100,
    });
    expect(source?.[qualityMetrics.medianBodyWords]).toBeTypeOf("number");
    expect(docs.filter((d) => qualityMetrics.medianBodyWords in d)).toHaveLength(1);
    expect(docs.find((d) => qualityMetrics.drops in d)).not.toHaveProperty(SOURCE_PROPERTY);
    // The source is a property of its document, not a dimension: no custom metric per publisher.
    for (const d of docs) expect(JSON.stringify(d._aws)).not.toContain(SOURCE_PROPERTY);
    await putDay("2026-11-29", 40, false); // a template change: teaser-only bodies, dates lost
    const broken = (await runtime.invoke("quality", { at: "2026-11-29T23:00:00.000Z" })) as QualityReport;
    expect(broken.findings.map((d) => d.metric).sort()).toEqual(["median_words", "valid_date_share"]);
    // The alarm's metric counts publishers (one here, with two findings), not sources × figures.
    const rerun = await emfOf(() => runtime.invoke("quality", { at: "2026-11-29T23:00:00.000Z" }));
    expect(rerun.find((d) => qualityMetrics.publishersWithDrop in d)).toMatchObject({
      [qualityMetrics.publishersWithDrop]: 1,
      [qualityMetrics.drops]: 2,
    });
    // Each finding names the day's articles that show it best: the shortest bodies, the undated ones.
    for (const f of broken.findings) {
      expect(f.sample_urls).toHaveLength(5);
      for (const u of f.sample_urls) expect(u).toMatch(/^https:\/\/bugle\.example\/2026-11-29\/story-\d+$/);
    }
    const silent = (await runtime.invoke("quality", { at: "2026-12-01T23:00:00.000Z" })) as QualityReport;
    expect(silent.findings).toEqual([
      {
        source_id: "daily-bugle",
        metric: "articles",
        today: 0,
        baseline: 12,
        day: "2026-12-01",
        sample_urls: [],
        raw_keys: [],
      },
    ]);
  });
});
