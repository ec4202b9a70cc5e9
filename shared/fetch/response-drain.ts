/** Closing a response nobody will read, keeping its connection when that is cheap. */
import type http from "node:http";

/** A discarded body up to this size, arriving within this time, is read to the end to keep its connection. */
const DRAIN_BYTES = 16 * 1024;
const DRAIN_MS = 2_000;

/**
 * Closes a response; a body not read to the end takes its socket with it. The abort error that
 * follows must not go unhandled.
 */
export function drop(body: http.IncomingMessage): void {
  body.on("error", () => {});
  body.destroy();
}

/**
 * Drops a response body nobody will read. A short one (a redirect's, an error page's) is drained so
 * that its kept-alive socket can serve the next request; past DRAIN_BYTES or DRAIN_MS the socket
 * goes with it, so a hostile body is never read. Settles once the socket is back in the pool or gone.
 */
export function discard(body: http.IncomingMessage): Promise<void> {
  if (body.destroyed || body.readableEnded || Number(body.headers["content-length"]) > DRAIN_BYTES) {
    drop(body);
    return Promise.resolve();
  }
  body.on("error", () => {});
  let seen = 0;
  const slow = setTimeout(() => body.destroy(), DRAIN_MS).unref();
  return new Promise((resolve) => {
    body
      .on("data", (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > DRAIN_BYTES) body.destroy();
      })
      .once("end", resolve)
      .once("close", () => {
        clearTimeout(slow);
        resolve();
      });
  });
}
