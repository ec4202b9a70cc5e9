/** Re-runs the idempotent addArticle when a version-checked write lost a race to another worker. */
import { type AddOptions, addArticle } from "./clusterer";
import { type DedupArticle, DedupConflictError, type DedupStore } from "./dedup-store";

export async function addArticleRetrying(
  store: DedupStore,
  article: DedupArticle,
  opts: AddOptions & { attempts?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<{ cluster_id: string; merged: string[] }> {
  const attempts = opts.attempts ?? 8;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await addArticle(store, article, opts);
    } catch (err) {
      if (!(err instanceof DedupConflictError) || attempt >= attempts) throw err;
      // Jittered backoff so that two workers racing for one cluster do not collide again.
      await sleep(Math.random() * 10 * 2 ** attempt);
    }
  }
}
