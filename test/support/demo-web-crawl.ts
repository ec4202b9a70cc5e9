/** A crawl of the demo web on the test emulators, for tests that need a real run's tables. */
import { inject } from "vitest";
import { type DemoWeb, startDemoWeb } from "../../infra/local/demo-web/server";
import { LocalRuntime } from "../../infra/local/runtime";
import { DynamoDatasetReader } from "../../shared/aws/dataset-reader";
import { uniquePrefix } from "./unique-prefix";

/** The demo web's clock in tests, fixed: the functions' clock is pinned an hour after it
 * (STORYTRAIL_NOW), so the news sitemap's 3-day window and the report's day never meet the calendar. */
export const TEST_ANCHOR = "2026-12-02T11:00:00Z";

/** The functions' clock for a crawl of the demo web in tests. */
export const TEST_NOW = "2026-12-02T12:00:00Z";

export interface DemoWebCrawl {
  readonly web: DemoWeb;
  readonly runtime: LocalRuntime;
  readonly source: DynamoDatasetReader;
  close(): Promise<void>;
}

export async function crawlDemoWeb(label: string): Promise<DemoWebCrawl> {
  const web = await startDemoWeb({ anchor: new Date(TEST_ANCHOR) });
  const runtime = await LocalRuntime.start({
    endpoints: inject("endpoints"),
    prefix: uniquePrefix(label),
    settings: {
      STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
      STORYTRAIL_MIN_HOST_DELAY_MS: "0",
      STORYTRAIL_NOW: TEST_NOW,
    },
  });
  await runtime.discover({ sources: web.sources, run_id: "demo-web-1" });
  await runtime.drain();
  return {
    web,
    runtime,
    source: new DynamoDatasetReader(runtime.clients.doc, runtime.resources.tables),
    close: async () => {
      await runtime.close();
      await web.close();
    },
  };
}
