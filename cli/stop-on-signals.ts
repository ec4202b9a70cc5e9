/**
 * Ctrl-C and SIGTERM for a local run (crawl, demo, import): the first signal aborts the run, which
 * stops taking work, lets go of what is in flight (infra/local/settle-or-abandon.ts), keeps its state
 * and stops its emulators; a second signal, or the run still going FORCE_AFTER_MS after the first,
 * kills the emulators and exits at once. The exit code is 128 + the signal's number, as shells report.
 */

/** Exit codes of a run ended by a signal. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

/**
 * A stopped run is over within 5 s, whatever it waits for: process managers give 10 s (Docker) to
 * 30 s (Kubernetes) before SIGKILL, which would leave DynamoDB Local running. A clean stop of a
 * crawl held by a publisher that never answers took 1.6 s, with 100 such pages on 10 hosts 2.6 s.
 */
const FORCE_AFTER_MS = 4_500;

export interface RunStop {
  readonly signal: AbortSignal;
  received(): StopSignal | undefined;
  dispose(): void;
}

/** `kill` ends the run's children at once (the emulators' killNow), before the process exits. */
export function stopOnSignals(kill: () => void, log: (line: string) => void): RunStop {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  let force: NodeJS.Timeout | undefined;
  const exitNow = (why: string) => {
    log(why);
    kill();
    process.exit(SIGNAL_EXIT_CODES[received ?? "SIGTERM"]);
  };
  const handlers = (Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]).map((sig) => {
    const handler = () => {
      if (received) exitNow(`${sig} again: stopping at once`);
      received = sig;
      log(
        `${sig}: letting go of the work in flight (kept for the next run), then stopping (again to force) …`,
      );
      controller.abort(sig);
      force = setTimeout(
        () => exitNow(`still running ${FORCE_AFTER_MS} ms after ${sig}: stopping at once`),
        FORCE_AFTER_MS,
      );
      force.unref();
    };
    process.on(sig, handler);
    return [sig, handler] as const;
  });
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      clearTimeout(force);
      for (const [sig, handler] of handlers) process.removeListener(sig, handler);
    },
  };
}
