/** The local run's live story clusters, as sorted lists of member URLs (retired clusters left out). */
import type { LocalRuntime } from "../../infra/local/runtime";
import type { LocalStore } from "../../shared/local-store/local-store";
import { clusterRecordSchema } from "../../shared/records";

export async function liveStories(from: LocalRuntime | LocalStore): Promise<string[][]> {
  const raw: unknown[] = [];
  if ("items" in from) raw.push(...(await from.items("clusters")));
  else for await (const i of from.clusterItems()) raw.push(i);
  const items = raw.map((i) => clusterRecordSchema.parse(i));
  const live = new Set(
    items.filter((i) => i.record_type === "summary" && !i.merged_into).map((i) => i.cluster_id),
  );
  const byCluster = new Map<string, string[]>();
  for (const i of items)
    if (i.record_type === "member" && live.has(i.cluster_id))
      byCluster.set(i.cluster_id, [...(byCluster.get(i.cluster_id) ?? []), i.url].sort());
  return [...byCluster.values()].sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}
