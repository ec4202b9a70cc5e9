/** One worker of the extraction pool (extraction-pool.ts): prepares each page (decode, extract,
 * fingerprint, compress) or fingerprints each batch of texts it is sent. */
import { parentPort } from "node:worker_threads";
import { computeFingerprint } from "../dedup/fingerprint";
import { Shingler } from "../dedup/shingles";
import type { WorkerRequest } from "./extraction-pool";
import { type PreparedPage, preparePage } from "./prepare-page";

// The fingerprint scanner's working state, kept across this worker's pages as a fetch worker keeps it.
const shingler = new Shingler();

/** A copy of the bytes in an ArrayBuffer of their own, to transfer: zlib's output is a view on a
 * 16 KB chunk (a 3 KB body would clone all 16 KB), and a Buffer may share the pool's ArrayBuffer. */
function own(bytes: Uint8Array, transfer: ArrayBuffer[]): Uint8Array {
  const copy = new Uint8Array(bytes);
  transfer.push(copy.buffer);
  return copy;
}

function answer(request: WorkerRequest, transfer: ArrayBuffer[]): unknown {
  if (request.kind === "fingerprints")
    return request.texts.map((t) => computeFingerprint(t.text, t.title, shingler));
  const page = preparePage(request.job, shingler);
  const prepared: PreparedPage = {
    ...page,
    bodyGzip: own(page.bodyGzip, transfer),
    rawSample: page.rawSample && { ...page.rawSample, gzip: own(page.rawSample.gzip, transfer) },
  };
  return prepared;
}

parentPort?.on("message", ({ id, request }: { id: number; request: WorkerRequest }) => {
  try {
    const transfer: ArrayBuffer[] = [];
    parentPort?.postMessage({ id, result: answer(request, transfer) }, transfer);
  } catch (err) {
    parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
