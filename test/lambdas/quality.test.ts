/** The quality λ on DynamoDB Local: three normal days build a history, a broken template alarms. */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../infra/local/runtime";
import type { QualityReport } from "../../lambdas/quality";
import { uniquePrefix } from "../support/unique-prefix";

describe("quality λ", () => {
  let runtime: LocalRuntime;
  beforeAll(async () => {
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix("quality") });
  });
  afterAll(async () => runtime?.close());

  const putDay = async (dayIso: string, words: number, dated: boolean) => {
    for (let i = 0; i < 12; i++) {
      await runtime.clients.doc.send(
        new PutCommand({
          TableName: runtime.resources.tables.articles,
          Item: {
            article_id: `${dayIso}-${i}`,
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
    await putDay("2026-11-29", 40, false); // a template change: teaser-only bodies, dates lost
    const broken = (await runtime.invoke("quality", { at: "2026-11-29T23:00:00.000Z" })) as QualityReport;
    expect(broken.findings.map((d) => d.metric).sort()).toEqual(["median_words", "valid_date_share"]);
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
