/**
 * The clusterer over the embedded store (LMDB on disk) gives exactly the clusters it gives over the
 * in-memory store, on the dedup dev corpus (so its pairwise F1 is unchanged), and a run stopped
 * part-way resumes from the store to the same clusters.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runDedup } from "../../../shared/dedup/dataset-dedup";
import { LocalStore } from "../../../shared/local-store/local-store";

const DEV = resolve(import.meta.dirname, "../../../../shared/eval/dedup/corpus-dev.jsonl");
const lines = readFileSync(DEV, "utf8").split("\n").filter(Boolean);

/** The partition as sorted lists of ids (cluster ids aside). */
function partition(assignments: readonly { id: string; cluster_id: string }[]): string[][] {
  const by = new Map<string, string[]>();
  for (const a of assignments) by.set(a.cluster_id, [...(by.get(a.cluster_id) ?? []), a.id]);
  return [...by.values()].map((m) => m.sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe("LmdbDedupStore", () => {
  it("clusters the dev corpus exactly as the in-memory store does, committing every 100 articles", async () => {
    const memory = await runDedup(lines);
    const store = LocalStore.open(mkdtempSync(join(tmpdir(), "storytrail-lmdb-")));
    const onDisk = await runDedup(lines, {
      store: store.dedup,
      commit: () => store.commit(),
      commitEvery: 100,
    });
    await store.close();
    expect(onDisk.assignments).toEqual(memory.assignments);
    expect(partition(onDisk.assignments).length).toBeLessThan(lines.length);
  });

  it("resumes a run stopped part-way: the finished articles are kept, the rest added, the clusters the same", async () => {
    const whole = await runDedup(lines);
    const dir = mkdtempSync(join(tmpdir(), "storytrail-lmdb-resume-"));
    const first = LocalStore.open(dir);
    // A run stopped after 40 % of the lines.
    await runDedup(lines.slice(0, Math.floor(lines.length * 0.4)), {
      store: first.dedup,
      commit: () => first.commit(),
      commitEvery: 50,
    });
    await first.close();
    const again = LocalStore.open(dir);
    const resumed = await runDedup(lines, { store: again.dedup, commit: () => again.commit() });
    await again.close();
    expect(partition(resumed.assignments)).toEqual(partition(whole.assignments));
  });
});
