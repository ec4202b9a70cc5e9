/**
 * The dedup handler's log: the real handler on DynamoDB Local (the local runtime's tables), one INFO line
 * a batch with its counts; an article's own line only at DEBUG; a failed article's reason at WARN.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../infra/local/runtime";
import { createDedupHandler } from "../../lambdas/dedup";
import { atLogLevel, logLinesOf } from "../support/log-lines";
import { sqsRecord } from "../support/sqs-record";
import { dedupMessageOf, type SyntheticArticle, syntheticStories } from "../support/synthetic-stories";
import { uniquePrefix } from "../support/unique-prefix";

/** The functions' clock (STORYTRAIL_NOW): the stories' timestamps read it. */
const NOW = "2026-12-01T00:00:00.000Z";

const records = (articles: SyntheticArticle[]) =>
  articles.map((a) =>
    sqsRecord({ id: `m-${a.id}`, body: JSON.stringify(dedupMessageOf(a)), queue: "dedup" }),
  );

describe("dedup handler: one log line a batch", () => {
  let runtime: LocalRuntime;

  beforeAll(async () => {
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix: uniquePrefix("deduplog") });
  });

  afterAll(async () => {
    await runtime?.close();
  });

  it("logs a batch in one INFO line with its counts, a failure's reason at WARN, and no line an article", async () => {
    // Three stories of two copies each: the first copies found them, the second join them.
    const articles = syntheticStories({ stories: 3, copies: 1, singletons: 0, seed: 26, prefix: "log" });
    const firsts = articles.filter((a) => a.id.endsWith("-c0"));
    const seconds = articles.filter((a) => a.id.endsWith("-c1"));
    const handler = atLogLevel("INFO", () =>
      createDedupHandler({ ...runtime.env("dedup"), STORYTRAIL_NOW: NOW }),
    );

    const founded = await logLinesOf(() => handler({ Records: records(firsts) }, runtime.context("dedup")));
    expect(founded.result.batchItemFailures).toEqual([]);
    expect(founded.lines).toEqual([
      expect.objectContaining({
        level: "INFO",
        message: "dedup batch",
        articles: 3,
        new_stories: 3,
        joined: 0,
        merged: 0,
        failures: 0,
      }),
    ]);

    const malformed = sqsRecord({ id: "m-garbage", body: "{not json", queue: "dedup" });
    const joined = await logLinesOf(() =>
      handler({ Records: [...records(seconds), malformed] }, runtime.context("dedup")),
    );
    expect(joined.result.batchItemFailures).toEqual([{ itemIdentifier: "m-garbage" }]);
    expect(joined.lines.filter((l) => l.level === "INFO")).toEqual([
      expect.objectContaining({
        message: "dedup batch",
        articles: 4,
        new_stories: 0,
        joined: 3,
        failures: 1,
      }),
    ]);
    expect(joined.lines.filter((l) => l.level !== "INFO")).toEqual([
      expect.objectContaining({
        level: "WARN",
        message: "not clustered",
        message_id: "m-garbage",
        error: expect.stringContaining("JSON"),
      }),
    ]);
  });

  it("logs each article's story at DEBUG, beside the batch's line", async () => {
    const articles = syntheticStories({ stories: 0, copies: 0, singletons: 2, seed: 27, prefix: "dbg" });
    const handler = atLogLevel("DEBUG", () =>
      createDedupHandler({ ...runtime.env("dedup"), STORYTRAIL_NOW: NOW }),
    );
    const { lines } = await logLinesOf(() =>
      handler({ Records: records(articles) }, runtime.context("dedup")),
    );
    const clustered = lines.filter((l) => l.message === "clustered");
    expect(clustered.map((l) => [l.level, l.correlation_id]).sort()).toEqual([
      ["DEBUG", "dbgu0"],
      ["DEBUG", "dbgu1"],
    ]);
    for (const l of clustered) expect(l.cluster_id).toEqual(expect.any(String));
    expect(lines.filter((l) => l.level === "INFO")).toEqual([
      expect.objectContaining({ message: "dedup batch", articles: 2, new_stories: 2 }),
    ]);
  });
});
