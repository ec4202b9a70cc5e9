/** The object store's calls as the archive makes them: a failure is a `store_refused` error naming the key. */
import { ArchiveError } from "./archive-error";

/** Runs the store's call, turning its failure into a `store_refused` error naming the key. */
export async function storeCall<T>(what: string, key: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ArchiveError) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    throw new ArchiveError("store_refused", `the archive store refused to ${what} ${key}: ${msg}`, {
      cause: err,
    });
  }
}
