/** One worker of the extraction pool (extraction-pool.ts): prepares each page (decode, extract,
 * fingerprint, compress) or fingerprints each batch of texts it is sent. */
import { parentPort } from "node:worker_threads";
import { computeFingerprint } from "../dedup/fingerprint";
import { Shingler } from "../dedup/shingles";
import type { WorkerRequest } from "./extraction-pool";
import { type PreparedPage, preparePage } from "./prepare-page";

// The fingerprint scanner's working state, kept across this worker's pages as a fetch worker keeps it.
const shingler = new Shingler();

/**
 * The bytes in an ArrayBuffer of their own size: zlib's output is a view on its 16 KB chunk, which a
 * structured clone copies whole (a 3 KB body would cost 16 KB). Cloned, not transferred: transferring
 * them cost the worker's postMessage ~4× its time (220 → 800 ms a worker on the 35 MB WARC, node
 * --cpu-prof at load ~10), more than the copy it saves.
 */
function own(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

function answer(request: WorkerRequest): unknown {
  if (request.kind === "fingerprints")
    return request.texts.map((t) => computeFingerprint(t.text, t.title, shingler));
  const page = preparePage(request.job, shingler);
  const prepared: PreparedPage = {
    ...page,
    bodyGzip: own(page.bodyGzip),
    rawSample: page.rawSample && { ...page.rawSample, gzip: own(page.rawSample.gzip) },
  };
  return prepared;
}

parentPort?.on("message", ({ id, request }: { id: number; request: WorkerRequest }) => {
  try {
    parentPort?.postMessage({ id, result: answer(request) });
  } catch (err) {
    parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
