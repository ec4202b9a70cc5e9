/**
 * One delivery of a fetch message, with its outcome always on the Frontier item: a delivery that
 * follows one which ended without an outcome (the function was killed by its timeout or memory, or
 * crashed; not one put back until its host's slot, nor one after such put-backs) records `killed`
 * first; an error the fetch did not record itself (storage failing after the SDK's retries, a bug) is recorded before
 * it is rethrown for SQS to retry. So when a message reaches the DLQ, the item says why.
 *
 * The fetch counts a URL's attempts itself (the Frontier's `attempts`) and gives up after
 * MAX_FETCH_ATTEMPTS: the caller parks the message in the DLQ. SQS's receive count cannot decide this,
 * because a page put back until its host's slot counts a receive too.
 */
import type { FailureReason, FetchMessage } from "../records";
import { type FetchDeps, type FetchOutcome, fetchArticle, TransientFetchError } from "./fetch-article";
import { type Frontier, StaleDeliveryError } from "./ports";

/** Attempts at one URL (each recorded on its Frontier item) before it is parked in the DLQ. */
export const MAX_FETCH_ATTEMPTS = 3;

/** The last allowed attempt failed: the caller parks the message in the DLQ and acknowledges it. */
export interface GaveUp {
  readonly kind: "gave_up";
  readonly reason: FailureReason;
  readonly detail: string;
  readonly attempts: number;
}

/** AWS SDK errors (service answers and transport failures) carry `$metadata`; the domain does not import the SDK. */
function isStorageError(err: unknown): boolean {
  return typeof err === "object" && err !== null && "$metadata" in err;
}

/** The Frontier with every outcome stamped with the delivery (and its message) that recorded it. */
function stampingDelivery(f: Frontier, delivery: number, message: string | undefined): Frontier {
  return {
    claim: (e) => f.claim(e),
    get: (url) => f.get(url),
    markSkipped: (url, s) => f.markSkipped(url, s),
    markFetched: (url, r) => f.markFetched(url, { ...r, delivery, message }),
    markFailed: (url, x) => f.markFailed(url, { ...x, delivery, message }),
  };
}

/**
 * The delivery before `delivery` that should have recorded an outcome and did not (it was killed), if
 * any: the one just before, or, when that one and those before it were put back (a run of skips), the one
 * before the run.
 */
async function killedDelivery(
  frontier: Frontier,
  url: string,
  delivery: number,
  message: string | undefined,
  early: number,
): Promise<number | null> {
  const entry = await frontier.get(url);
  if (!entry) return null;
  // The item's deliveries are another message's (this one was sent again: a redrive, a restored local
  // run): nothing says how that one's last delivery ended, and this message's earlier ones wrote nothing.
  if (message !== undefined && entry.delivery_message && entry.delivery_message !== message) return null;
  const skippedTo = entry.skipped_delivery;
  const previous =
    skippedTo === delivery - 1 ? (entry.skipped_from ?? skippedTo ?? delivery) - 1 : delivery - 1;
  // Deliveries that came before the page's slot were put back without a note: no attempts.
  if (previous <= early) return null;
  // Items recorded before deliveries were stamped: an outcome of any delivery leaves the status.
  if (entry.last_delivery === undefined || entry.last_delivery === null)
    return entry.status === "queued" ? previous : null;
  return entry.last_delivery >= previous ? null : previous;
}

/**
 * Records `killed` for the delivery before this one that ended without an outcome, if any; the URL's
 * give-up when that was its last allowed attempt. Fetch calls it before fetching, and before putting a
 * page back (a killed delivery is recorded by the next one, even when that one is put back). `early`:
 * how many first deliveries came before the page's reserved slot (put back without a note: 0 or 1).
 */
export async function recordKilled(
  url: string,
  delivery: number,
  deps: Pick<FetchDeps, "frontier" | "now">,
  message?: string,
  early = 0,
): Promise<GaveUp | null> {
  const killed = delivery > 1 ? await killedDelivery(deps.frontier, url, delivery, message, early) : null;
  if (killed === null) return null;
  const detail = `delivery ${killed} ended without an outcome (function timeout, out of memory or a crash)`;
  const attempts = await deps.frontier.markFailed(url, {
    reason: "killed",
    detail,
    http_status: null,
    now: deps.now().toISOString(),
    // Stamped with the killed delivery: this one has not recorded its own outcome yet.
    delivery: killed,
    message,
  });
  return attempts >= MAX_FETCH_ATTEMPTS ? { kind: "gave_up", reason: "killed", detail, attempts } : null;
}

/** One delivery of `msg`: `delivery` is SQS's receive count, `message` the message id (numbers compare
 * only within one message), `early` as recordKilled's. */
export async function fetchAttempt(
  msg: FetchMessage,
  delivery: number,
  deps: FetchDeps,
  message?: string,
  early = 0,
): Promise<FetchOutcome | GaveUp> {
  const frontier = stampingDelivery(deps.frontier, delivery, message);
  const gaveUp = await recordKilled(msg.url, delivery, deps, message, early);
  if (gaveUp) return gaveUp;
  try {
    return await fetchArticle(msg, { ...deps, frontier });
  } catch (err) {
    // An abandoned invocation running on: a later delivery owns the URL's outcome.
    if (err instanceof StaleDeliveryError) throw err;
    if (err instanceof TransientFetchError) {
      // Recorded by fetchArticle; retried by SQS until the last attempt.
      if (err.attempts >= MAX_FETCH_ATTEMPTS)
        return { kind: "gave_up", reason: err.reason, detail: err.detail, attempts: err.attempts };
      throw err;
    }
    const lastAttempt = await recordError(msg.url, err, delivery, deps, message);
    if (lastAttempt) return lastAttempt;
    throw err;
  }
}

/**
 * Records an error the fetch did not record itself on the URL's Frontier item (storage failing after the
 * SDK's retries: storage_error; anything else: internal_error), stamped with the delivery; the give-up when
 * that was the last allowed attempt, else null (the caller lets SQS retry). Best effort: when the
 * Frontier table itself is what fails, the error still goes to SQS.
 */
export async function recordError(
  url: string,
  err: unknown,
  delivery: number,
  deps: Pick<FetchDeps, "frontier" | "now">,
  message?: string,
): Promise<GaveUp | null> {
  const reason = isStorageError(err) ? "storage_error" : "internal_error";
  const name = err instanceof Error ? err.name : "Error";
  const text = err instanceof Error ? err.message : String(err);
  const detail = `${name}: ${text}`.slice(0, 500);
  const attempts = await stampingDelivery(deps.frontier, delivery, message)
    .markFailed(url, { reason, detail, http_status: null, now: deps.now().toISOString() })
    .catch(() => null);
  return attempts !== null && attempts >= MAX_FETCH_ATTEMPTS
    ? { kind: "gave_up", reason, detail, attempts }
    : null;
}
