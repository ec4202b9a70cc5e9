/**
 * The store of `storytrail import` and `storytrail dedup` on one machine: one LMDB environment (the
 * `lmdb` package) in `<data dir>/store/` holding the articles and the clusterer's state (fingerprints,
 * LSH buckets, stories), behind the same ports as the DynamoDB tables. LMDB, not DuckDB: the clusterer
 * makes ~30 point reads and writes per article; measured on this machine, an LMDB get took 6 µs and a
 * put 25 µs, a DuckDB point select 3.3 ms and an insert 4.9 ms (docs/backfill.md).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { open, type RootDatabase } from "lmdb";
import type { DatasetSource } from "../export/dataset";
import { LmdbArticles, SampleFiles } from "./lmdb-articles";
import { LmdbDedupStore } from "./lmdb-dedup-store";
import { commitStaged, StagedTable } from "./staged-table";

/** The folder of a data directory that holds a local store. */
const STORE_FOLDER = "store";

export function hasLocalStore(dataDir: string): boolean {
  return existsSync(join(dataDir, STORE_FOLDER, "data.mdb"));
}

export class LocalStore implements DatasetSource {
  readonly dedup: LmdbDedupStore;
  readonly articles: LmdbArticles;
  readonly samples: SampleFiles;
  private readonly articleItemsTable: StagedTable<string, Record<string, unknown>>;

  private constructor(
    private readonly root: RootDatabase,
    dir: string,
  ) {
    this.dedup = new LmdbDedupStore(root);
    this.articleItemsTable = new StagedTable(root.openDB({ name: "articles" }));
    this.articles = new LmdbArticles(this.articleItemsTable);
    this.samples = new SampleFiles(join(dir, "samples"));
  }

  /** Opens (creating it if need be) the store of a data directory. */
  static open(dataDir: string): LocalStore {
    const dir = join(dataDir, STORE_FOLDER);
    // One file (data.mdb) in the folder; the map grows as the data does.
    return new LocalStore(open({ path: dir, maxDbs: 16 }), dir);
  }

  /** Writes staged since the last commit. */
  get pending(): number {
    return this.dedup.tables.reduce((n, t) => n + t.pending, this.articleItemsTable.pending);
  }

  /** Writes everything staged in one durable transaction. */
  commit(): void {
    commitStaged(this.root, [
      ...this.dedup.tables,
      this.articleItemsTable as unknown as StagedTable<never, unknown>,
    ]);
  }

  async close(): Promise<void> {
    this.commit();
    await this.root.close();
  }

  async *clusterItems(): AsyncIterable<Record<string, unknown>> {
    yield* this.dedup.clusterItems();
  }

  async *articleItems(): AsyncIterable<Record<string, unknown>> {
    for (const { value } of this.articleItemsTable.committed()) yield value;
  }

  /** An import has no frontier: its pages come from archives, not discovered URLs. */
  async *frontierItems(): AsyncIterable<Record<string, unknown>> {}
}
