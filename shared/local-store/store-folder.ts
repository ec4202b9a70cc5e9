/**
 * Where a data directory keeps the embedded store (local-store.ts), and whether it holds one: read by
 * every command that opens a run, so this file loads nothing (LMDB's native module is not loaded to ask).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The folder of a data directory that holds a local store. */
export const STORE_FOLDER = "store";

export function hasLocalStore(dataDir: string): boolean {
  return existsSync(join(dataDir, STORE_FOLDER, "data.mdb"));
}
