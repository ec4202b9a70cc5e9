import type { LocalRuntime } from "../../infra/local/runtime";
import { DynamoDedupStore } from "../../shared/aws/dedup-tables";

/** The runtime's dedup store with its clock at `ms`, and the `now` addArticle stamps with: a test moves
 * time by asking for another instant, never by waiting. */
export const dedupStoreAt = (runtime: LocalRuntime) => (ms: number) => ({
  store: new DynamoDedupStore(runtime.clients.doc, runtime.resources.tables, { nowMs: () => ms }),
  now: () => new Date(ms).toISOString(),
});
