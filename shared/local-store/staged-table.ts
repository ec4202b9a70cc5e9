/**
 * One LMDB database with its writes staged in memory until the next commit: the clusterer reads what
 * it just wrote (a pending LMDB write is not visible before its transaction commits), and thousands
 * of articles' writes go to disk in one transaction instead of one each (a synchronous LMDB commit
 * per write measured 25 µs, so ~30 of them per article cost more than the clustering). What was read
 * from LMDB since the last commit is kept too: the clusterer reads each of an article's LSH buckets
 * twice before it files itself in them (its first look, then its filing), and a candidate's fingerprint
 * item comes back as the same object, decoded once (`storytrail dedup`, 30,000 synthetic articles: 24
 * bucket reads an article, 16 of them from LMDB before; 8 now). Values are shared: callers copy, never
 * mutate, what they get (as with the in-memory store).
 */
import type { Database, RootDatabase } from "lmdb";

/** Staged as deleted. */
const GONE = Symbol("gone");

export class StagedTable<K extends string | number, V> {
  private staged = new Map<K, V | typeof GONE>();
  /** Values read from LMDB since the last commit (GONE: not there). */
  private read = new Map<K, V | typeof GONE>();
  private db: Database<V, K>;

  constructor(
    private readonly openIn: (root: RootDatabase) => Database<V, K>,
    root: RootDatabase,
  ) {
    this.db = openIn(root);
  }

  /** Opens the database again in a reopened environment. */
  rebind(root: RootDatabase): void {
    this.db = this.openIn(root);
    this.read = new Map();
  }

  get(key: K): V | undefined {
    const s = this.staged.get(key) ?? this.read.get(key);
    if (s !== undefined) return s === GONE ? undefined : s;
    const v = this.db.get(key);
    this.read.set(key, v === undefined ? GONE : v);
    return v;
  }

  put(key: K, value: V): void {
    this.staged.set(key, value);
  }

  remove(key: K): void {
    this.staged.set(key, GONE);
  }

  /** Writes what is staged, inside the caller's write transaction. */
  writeStaged(): void {
    for (const [k, v] of this.staged) {
      if (v === GONE) this.db.removeSync(k);
      else this.db.putSync(k, v);
    }
    this.staged = new Map();
    this.read = new Map();
  }

  /** Every committed entry (call after a commit: staged writes are not included). */
  *committed(): Iterable<{ key: K; value: V }> {
    for (const { key, value } of this.db.getRange()) yield { key, value };
  }
}

/** Commits every table's staged writes in one transaction. */
export function commitStaged(root: RootDatabase, tables: readonly StagedTable<never, unknown>[]): void {
  root.transactionSync(() => {
    for (const t of tables) t.writeStaged();
  });
}
