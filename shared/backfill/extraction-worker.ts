/** One worker of the extraction pool (extraction-pool.ts): decodes, extracts and fingerprints each page it is sent. */
import { parentPort } from "node:worker_threads";
import { Shingler } from "../dedup/shingles";
import { type PageJob, preparePage } from "./prepare-page";

// The fingerprint scanner's working state, kept across this worker's pages as a fetch worker keeps it.
const shingler = new Shingler();

parentPort?.on("message", ({ id, job }: { id: number; job: PageJob }) => {
  try {
    parentPort?.postMessage({ id, prepared: preparePage(job, shingler) });
  } catch (err) {
    parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
