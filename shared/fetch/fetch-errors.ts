/** Why a fetch failed, as a FailureReason: the errors our limits throw and the map from everything else. */
import type { FailureReason } from "../records";
import { BlockedAddressError } from "./address-guard";

/** A fetch that stops short: the reason recorded on the URL's Frontier item, and a detail for people. */
export interface Refusal {
  reason: FailureReason;
  detail: string;
}

export class TimeoutError extends Error {
  readonly code = "ETIMEDOUT";
  constructor(detail: string) {
    super(detail);
    this.name = "TimeoutError";
  }
}

/** A byte cap was hit: the body, the decoded body or the response headers. */
export class LimitError extends Error {
  constructor(detail: string, options?: ErrorOptions) {
    super(detail, options);
    this.name = "LimitError";
  }
}

function errorChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let e: unknown = err;
  while (e && chain.length < 5) {
    chain.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return chain;
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** Maps an exception from node:http, zlib or our guards to a failure reason. */
export function classify(err: unknown, deadlineHit: boolean): Refusal {
  const chain = errorChain(err);
  for (const e of chain) {
    if (e instanceof BlockedAddressError) return { reason: "blocked_address", detail: e.message };
    if (e instanceof LimitError) return { reason: "too_large", detail: e.message };
  }
  if (deadlineHit) return { reason: "timeout", detail: "overall deadline exceeded" };
  for (const e of chain) {
    const code = (e as { code?: string }).code ?? "";
    if (code === "ERR_BLOCKED_ADDRESS") return { reason: "blocked_address", detail: describe(e) };
    if (code === "ETIMEDOUT") return { reason: "timeout", detail: describe(e) };
    if (code === "ERR_BUFFER_TOO_LARGE") {
      return { reason: "too_large", detail: describe(e) };
    }
    if (
      code.startsWith("Z_") ||
      code === "ERR_BROTLI_DECOMPRESSION_FAILED" ||
      code.startsWith("ERR__ERROR")
    ) {
      return { reason: "decode_error", detail: describe(e) };
    }
  }
  return { reason: "network_error", detail: describe(err) };
}

const STALE_SOCKET_CODES = new Set(["ECONNRESET", "EPIPE"]);

/** What a kept-alive socket the server closed looks like when the next request is written to it. */
export function isStaleSocket(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && STALE_SOCKET_CODES.has(code);
}
