/** One worker of the extraction pool (extraction-pool.ts): extracts each page it is sent. */
import { parentPort } from "node:worker_threads";
import { type ExtractInput, extractArticle } from "../extract/article";

parentPort?.on("message", ({ id, input }: { id: number; input: ExtractInput }) => {
  try {
    parentPort?.postMessage({ id, extraction: extractArticle(input) });
  } catch (err) {
    parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
