/** A crawl of the demo web on the test emulators, for tests that need a real run's tables. */
import { inject } from "vitest";
import { type DemoWeb, startDemoWeb } from "../../infra/local/demo-web/server";
import { LocalRuntime } from "../../infra/local/runtime";
import { DynamoDatasetReader } from "../../shared/aws/dataset-reader";
import { uniquePrefix } from "./unique-prefix";

/** The demo web's clock in tests: an hour ago, whole hour (the news sitemap drops items over 3 days old). */
export function testAnchor(): Date {
  return new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
}

export interface DemoWebCrawl {
  readonly web: DemoWeb;
  readonly runtime: LocalRuntime;
  readonly source: DynamoDatasetReader;
  close(): Promise<void>;
}

export async function crawlDemoWeb(label: string): Promise<DemoWebCrawl> {
  const web = await startDemoWeb({ anchor: testAnchor() });
  const runtime = await LocalRuntime.start({
    endpoints: inject("endpoints"),
    prefix: uniquePrefix(label),
    settings: { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true", STORYTRAIL_MIN_HOST_DELAY_MS: "0" },
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
