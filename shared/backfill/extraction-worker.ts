/** One worker of the extraction pool (extraction-pool.ts): prepares each page (decode, extract,
 * fingerprint) or fingerprints each batch of texts it is sent. */
import { parentPort } from "node:worker_threads";
import { computeFingerprint } from "../dedup/fingerprint";
import { Shingler } from "../dedup/shingles";
import type { WorkerRequest } from "./extraction-pool";
import { preparePage } from "./prepare-page";

// The fingerprint scanner's working state, kept across this worker's pages as a fetch worker keeps it.
const shingler = new Shingler();

function answer(request: WorkerRequest): unknown {
  if (request.kind === "page") return preparePage(request.job, shingler);
  return request.texts.map((t) => computeFingerprint(t.text, t.title, shingler));
}

parentPort?.on("message", ({ id, request }: { id: number; request: WorkerRequest }) => {
  try {
    parentPort?.postMessage({ id, result: answer(request) });
  } catch (err) {
    parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
