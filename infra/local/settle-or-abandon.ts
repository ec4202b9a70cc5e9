/**
 * How a stopped local run lets go of work in flight. Lambda ends an invocation by killing it; the
 * local runtime runs handlers in its own process, so it stops waiting instead: after a signal, work
 * that has not settled within a grace period is abandoned (its messages go back to their queue, saved
 * for the next run) and the process exits, which ends its open requests. Nothing is recorded as failed.
 */

/** What `settleOrAbandon` returns for work it stopped waiting for. */
export const ABANDONED: unique symbol = Symbol("abandoned");

/**
 * How long work in flight may still finish after a signal. A fetch waits up to 30 s for a publisher
 * (shared/fetch/http.ts): far over the 5 s a process manager is given here. DynamoDB and SQS calls on
 * loopback take milliseconds, so a batch storing its results finishes them. A crawl held by 100
 * unanswered pages on 10 hosts took 2.6 s from SIGTERM to exit with 500 ms (3.3 s with 1 s, and 4.9 s,
 * the forced stop, at a busier moment of a shared 2-core machine): the rest is the summary and saving
 * the queues.
 */
const STOP_GRACE_MS = 500;

/** `work`'s result, or ABANDONED once `signal` has aborted and `graceMs` more have passed. */
export function settleOrAbandon<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  graceMs = STOP_GRACE_MS,
): Promise<T | typeof ABANDONED> {
  if (!signal) return work;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const abandoned = new Promise<typeof ABANDONED>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve(ABANDONED), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  // The race subscribes to `work`: a rejection after it is abandoned is handled, not a crash.
  return Promise.race([work, abandoned]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener("abort", onAbort);
  });
}
