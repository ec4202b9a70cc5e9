/**
 * The store of `storytrail import` and `storytrail dedup` on one machine: one LMDB environment (the
 * `lmdb` package) in `<data dir>/store/` holding the articles and the clusterer's state (fingerprints,
 * LSH buckets, stories), behind the same ports as the DynamoDB tables. LMDB, not DuckDB: the clusterer
 * makes ~30 point reads and writes per article; measured on this machine, an LMDB get took 6 µs and a
 * put 25 µs, a DuckDB point select 3.3 ms and an insert 4.9 ms (docs/backfill.md).
 */
import { join } from "node:path";
import { open, type RootDatabase } from "lmdb";
import type { DatasetSource } from "../export/dataset";
import { LmdbArticles, SampleFiles } from "./lmdb-articles";
import { LmdbDedupStore } from "./lmdb-dedup-store";
import { commitStaged, StagedTable } from "./staged-table";
import { STORE_FOLDER } from "./store-folder";

/**
 * LMDB's 8 KB pages hold a fingerprint item (~2.1 KB) in its leaf: on the default 4 KB pages each one
 * took a 4 KB overflow page (20,000 synthetic articles: 108 MB on 4 KB pages, 93 MB on 8 KB).
 */
const PAGE_SIZE = 8192;

export class LocalStore implements DatasetSource {
  readonly dedup: LmdbDedupStore;
  readonly articles: LmdbArticles;
  readonly samples: SampleFiles;
  private readonly articleItemsTable: StagedTable<string, Record<string, unknown>>;
  private root: RootDatabase;

  private constructor(private readonly dir: string) {
    this.root = LocalStore.env(dir);
    this.dedup = new LmdbDedupStore(this.root);
    this.articleItemsTable = new StagedTable((r) => r.openDB({ name: "articles" }), this.root);
    this.articles = new LmdbArticles(this.articleItemsTable);
    this.samples = new SampleFiles(join(dir, "samples"));
  }

  private static env(dir: string): RootDatabase {
    // One file (data.mdb) in the folder; the map grows as the data does.
    return open({ path: dir, maxDbs: 16, pageSize: PAGE_SIZE });
  }

  /** Opens (creating it if need be) the store of a data directory. */
  static open(dataDir: string): LocalStore {
    return new LocalStore(join(dataDir, STORE_FOLDER));
  }

  private get tables(): StagedTable<never, unknown>[] {
    return [...this.dedup.tables, this.articleItemsTable as unknown as StagedTable<never, unknown>];
  }

  /**
   * Writes everything staged in one durable transaction, then maps the file afresh. A mapped page
   * counts in the process's resident set for as long as the map lasts, and the clusterer's reads fall
   * all over the file (random article ids, LSH buckets): kept mapped, the whole file ends up resident
   * (20,000 articles: 264 MB of file-backed RSS for a 108 MB file). Remapped at each commit, what is
   * resident is what the articles since the last commit touched; the rest stays in the OS's page cache,
   * reclaimable, as a file read with read() would.
   */
  async commit(): Promise<void> {
    commitStaged(this.root, this.tables);
    await this.root.close();
    this.root = LocalStore.env(this.dir);
    for (const t of this.tables) t.rebind(this.root);
  }

  async close(): Promise<void> {
    commitStaged(this.root, this.tables);
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
