/**
 * The one way storytrail fetches a URL: Node's http/https with explicit limits on time, bytes and
 * redirects, the SSRF guard on every hop's resolved address, content-type allow-lists, conditional
 * requests, charset decoding. Network and HTTP problems come back as a FetchFailure with a
 * failureReason; fetch() never throws for them. The parts: redirects.ts (where a fetch may go),
 * response-policy.ts (which responses are read), body-decoding.ts (bytes under the caps), charset.ts.
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { TLSSocket } from "node:tls";
import type { FailureReason } from "../records";
import { BlockedAddressError, blockedRange, guardedLookup, parseIpLiteral } from "./address-guard";
import { readBody } from "./body-decoding";
import { decodeBody } from "./charset";
import { classify, isStaleSocket, LimitError, type Refusal, TimeoutError } from "./fetch-errors";
import { isRedirect, RedirectTrail, vetUrl } from "./redirects";
import type { RequestPacer } from "./request-pacing";
import { discard } from "./response-drain";
import { type AcceptOptions, acceptHeader, judgeResponse, sniffRefusal } from "./response-policy";

export interface FetchLimits {
  maxBytes: number;
  maxRedirects: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  totalTimeoutMs: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  totalTimeoutMs: 30_000,
};

export interface FetchOptions extends AcceptOptions {
  etag?: string | null;
  lastModified?: string | null;
  limits?: Partial<FetchLimits>;
  /** Paces each request this fetch sends (request-pacing.ts); the waits do not count against totalTimeoutMs. */
  pace?: RequestPacer;
}

export interface FetchSuccess {
  ok: true;
  url: string;
  finalUrl: string;
  status: number;
  notModified: boolean;
  headers: Record<string, string>;
  contentType: string;
  /** Decompressed (Content-Encoding and gzip files). */
  bytes: Uint8Array;
  /** Decoded with `charset`. */
  text: string;
  charset: string;
  redirects: string[];
  /** True when `truncate` cut the body at maxBytes. */
  truncated?: boolean;
}

export interface FetchFailure {
  ok: false;
  url: string;
  finalUrl: string;
  status: number | null;
  reason: FailureReason;
  detail: string;
}

export type FetchResult = FetchSuccess | FetchFailure;

export interface HttpClientOptions {
  userAgent: string;
  /** Tests and local runs only: lets fetches reach loopback and private networks (never metadata or link-local). */
  allowPrivateAddresses?: boolean;
  limits?: Partial<FetchLimits>;
}

/**
 * Response headers may be this large (Node's default of 16 KiB is too small for some news sites'
 * cookies); past it the fetch fails too_large. Node keeps at most 2,000 header lines (maxHeadersCount).
 */
const MAX_HEADER_BYTES = 64 * 1024;
/** An idle kept-alive socket is closed after this long. */
const KEEP_ALIVE_MS = 4_000;

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

export class HttpClient {
  private readonly userAgent: string;
  private readonly limits: FetchLimits;
  private readonly allowPrivate: boolean;
  /** Resolves names and refuses blocked addresses: the check is on the address actually dialled. */
  private readonly lookup: LookupFunction;
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(opts: HttpClientOptions) {
    if (!opts.userAgent.trim()) throw new Error("HttpClient needs a User-Agent");
    this.userAgent = opts.userAgent;
    this.allowPrivate = opts.allowPrivateAddresses === true;
    this.limits = { ...DEFAULT_FETCH_LIMITS, ...opts.limits };
    this.lookup = guardedLookup(this.allowPrivate);
    const keepAlive = { keepAlive: true, timeout: KEEP_ALIVE_MS };
    this.agents = { http: new http.Agent(keepAlive), https: new https.Agent(keepAlive) };
  }

  async close(): Promise<void> {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  async fetch(url: string, opts: FetchOptions): Promise<FetchResult> {
    const limits: FetchLimits = { ...this.limits, ...opts.limits };
    const fail = (finalUrl: string, status: number | null, why: Refusal): FetchFailure => ({
      ok: false,
      url,
      finalUrl,
      status,
      ...why,
    });

    const first = vetUrl(url, undefined, this.allowPrivate);
    if (typeof first !== "string") return fail(url, null, first);

    const controller = new AbortController();
    let deadlineHit = false;
    // The deadline runs while requests are out, and stands still while the pacer holds one back.
    let timeLeft = limits.totalTimeoutMs;
    let armedAt = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      armedAt = Date.now();
      timer = setTimeout(() => {
        deadlineHit = true;
        controller.abort(new Error(`deadline of ${limits.totalTimeoutMs} ms exceeded`));
      }, timeLeft);
    };
    const disarm = () => {
      clearTimeout(timer);
      timeLeft = Math.max(0, timeLeft - (Date.now() - armedAt));
    };
    /** The hop whose request is out and whose end the pacer has not been told of. */
    let outstanding: string | null = null;
    /** The pacer's own failures (its storage) are not the fetch's: they are thrown, not classified. */
    let pacing = false;
    const ended = async () => {
      const hop = outstanding;
      outstanding = null;
      if (hop === null || !opts.pace) return;
      pacing = true;
      await opts.pace.after(hop);
      pacing = false;
    };
    const trail = new RedirectTrail(first, limits.maxRedirects, this.allowPrivate);
    let status: number | null = null;
    const sent = this.requestHeaders(opts);
    arm();
    try {
      for (;;) {
        if (opts.pace) {
          disarm();
          pacing = true;
          const go = await opts.pace.before(trail.current);
          pacing = false;
          if (!go)
            return fail(trail.current, status, {
              reason: "timeout",
              detail: "not sent: the caller's time ran out while waiting for the host's turn",
            });
          outstanding = trail.current;
          arm();
        }
        const send = (fresh: boolean) => this.send(trail.current, sent, limits, controller.signal, fresh);
        // A kept-alive socket the server closed while we were busy fails at once: a GET is safe to
        // send once more, on a fresh connection.
        const res = await send(false).catch((err: unknown) => {
          if (controller.signal.aborted || !isStaleSocket(err)) throw err;
          return send(true);
        });
        status = res.statusCode ?? 0;
        const headers = flattenHeaders(res.headers);

        if (isRedirect(status)) {
          await discard(res);
          await ended();
          const refused = trail.follow(status, headers.location);
          if (refused) return fail(trail.current, status, refused);
          continue;
        }

        const conditional = Boolean(opts.etag || opts.lastModified);
        const verdict = judgeResponse(status, headers, { ...opts, conditional }, limits.maxBytes);
        if (verdict.kind !== "read") discard(res);
        if (verdict.kind === "refuse") return fail(trail.current, status, verdict.refusal);
        const contentType = headers["content-type"] ?? "";
        const success = { ok: true, url, finalUrl: trail.current, status, headers, contentType } as const;
        if (verdict.kind === "not_modified") {
          const nothing = { bytes: new Uint8Array(0), text: "", charset: "utf-8" };
          return { ...success, notModified: true, ...nothing, redirects: trail.hops };
        }

        const body = await readBody(res, {
          contentEncoding: headers["content-encoding"] ?? "",
          maxBytes: limits.maxBytes,
          truncate: opts.truncate === true,
          gzipFile: opts.accept !== "html",
          signal: controller.signal,
        });
        if ("reason" in body) return fail(trail.current, status, body);
        const unlike = sniffRefusal(body.bytes, verdict, opts.accept);
        if (unlike) return fail(trail.current, status, unlike);
        const decoded = decodeBody(body.bytes, contentType);
        return {
          ...success,
          notModified: false,
          bytes: body.bytes,
          text: decoded.text,
          charset: decoded.charset,
          redirects: trail.hops,
          ...(body.truncated ? { truncated: true } : {}),
        };
      }
    } catch (err) {
      if (pacing) throw err;
      return fail(trail.current, status, classify(err, deadlineHit));
    } finally {
      clearTimeout(timer);
      await ended();
    }
  }

  /**
   * One GET, resolved with the response once its headers are in. Connect and header timeouts are
   * enforced here; the body's idle timeout is set on the response. `fresh` bypasses the keep-alive pool.
   */
  private send(
    href: string,
    headers: Record<string, string>,
    limits: FetchLimits,
    signal: AbortSignal,
    fresh: boolean,
  ): Promise<http.IncomingMessage> {
    const url = new URL(href);
    const secure = url.protocol === "https:";
    const literal = parseIpLiteral(url.hostname);
    // Names are checked by the lookup; net.connect skips it for IP literals, so vet those here too.
    const why = literal && blockedRange(literal.toString(), this.allowPrivate);
    if (why) return Promise.reject(new BlockedAddressError(url.hostname, String(literal), why));
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request(url, {
        method: "GET",
        headers,
        agent: fresh ? false : secure ? this.agents.https : this.agents.http,
        lookup: this.lookup,
        maxHeaderSize: MAX_HEADER_BYTES,
        signal,
      });
      const fail = (err: Error & { code?: string }) => {
        clearTimeout(headersTimer);
        // Deterministic, so too_large rather than a network_error that would be retried.
        if (err.code === "HPE_HEADER_OVERFLOW") {
          reject(new LimitError(`response headers exceed ${MAX_HEADER_BYTES} bytes`, { cause: err }));
        } else reject(err);
      };
      const headersTimer = setTimeout(
        () => req.destroy(new TimeoutError(`no response headers within ${limits.headersTimeoutMs} ms`)),
        limits.headersTimeoutMs,
      );
      req.on("error", fail);
      req.once("socket", (socket) => {
        // A pooled socket is already connected (and its TLS session up); a new one gets connectTimeoutMs.
        const connecting = secure ? !(socket as TLSSocket).authorized : socket.connecting;
        if (!connecting) return;
        const timer = setTimeout(
          () => req.destroy(new TimeoutError(`no connection within ${limits.connectTimeoutMs} ms`)),
          limits.connectTimeoutMs,
        );
        const done = () => clearTimeout(timer);
        socket.once(secure ? "secureConnect" : "connect", done);
        socket.once("close", done);
      });
      req.once("response", (res) => {
        clearTimeout(headersTimer);
        req.setTimeout(limits.bodyTimeoutMs, () =>
          res.destroy(new TimeoutError(`body idle for ${limits.bodyTimeoutMs} ms`)),
        );
        resolve(res);
      });
      req.end();
    });
  }

  private requestHeaders(opts: FetchOptions): Record<string, string> {
    const h: Record<string, string> = {
      "user-agent": this.userAgent,
      accept: acceptHeader(opts),
      "accept-encoding": "gzip, deflate, br",
    };
    if (opts.etag) h["if-none-match"] = opts.etag;
    if (opts.lastModified) h["if-modified-since"] = opts.lastModified;
    return h;
  }
}
