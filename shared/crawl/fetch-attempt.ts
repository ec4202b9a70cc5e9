/**
 * One delivery of a fetch message, with its outcome always on the Frontier item: a delivery that
 * follows one which ended without an outcome (the function was killed by its timeout or memory, or
 * crashed; not one skipped unread behind a failed page of its host) records `killed` first; an error the fetch did not record itself (storage failing after
 * the SDK's retries, a bug) is recorded before it is rethrown for SQS to retry. So when a message
 * reaches the DLQ, the item says why.
 */
import type { FetchMessage } from "../records";
import { type FetchDeps, type FetchOutcome, fetchArticle, TransientFetchError } from "./fetch-article";

/** AWS SDK errors (service answers and transport failures) carry `$metadata`; the domain does not import the SDK. */
function isStorageError(err: unknown): boolean {
  return typeof err === "object" && err !== null && "$metadata" in err;
}

export async function fetchAttempt(
  msg: FetchMessage,
  delivery: number,
  deps: FetchDeps,
): Promise<FetchOutcome> {
  if (delivery > 1) {
    const entry = await deps.frontier.get(msg.url);
    // Still "queued": the last delivery recorded neither an article nor a failure, and was not skipped
    // unread behind a failed page of its host (fifo-groups-concurrently.ts).
    if (entry?.status === "queued" && entry.skipped_delivery !== delivery - 1) {
      await deps.frontier.markFailed(msg.url, {
        reason: "killed",
        detail: `delivery ${delivery - 1} ended without an outcome (function timeout, out of memory or a crash)`,
        http_status: null,
        now: deps.now().toISOString(),
      });
    }
  }
  try {
    return await fetchArticle(msg, deps);
  } catch (err) {
    if (err instanceof TransientFetchError) throw err; // recorded by fetchArticle
    const reason = isStorageError(err) ? "storage_error" : "internal_error";
    const name = err instanceof Error ? err.name : "Error";
    const message = err instanceof Error ? err.message : String(err);
    // Best effort: when the Frontier table itself is what fails, the error still goes to SQS.
    await deps.frontier
      .markFailed(msg.url, {
        reason,
        detail: `${name}: ${message}`.slice(0, 500),
        http_status: null,
        now: deps.now().toISOString(),
      })
      .catch(() => {});
    throw err;
  }
}
