/**
 * The one way storytrail fetches a URL: Node's http/https with explicit limits on time, bytes and
 * redirects, the SSRF guard on every hop's resolved address, content-type allow-lists, conditional
 * requests, charset decoding. Network and HTTP problems come back as a FetchFailure with a
 * failureReason; fetch() never throws for them.
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { Readable, Transform, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { TLSSocket } from "node:tls";
import zlib from "node:zlib";
import type { FailureReason } from "../records";
import { BlockedAddressError, blockedRange, guardedLookup, parseIpLiteral } from "./address-guard";
import { decodeBody } from "./charset";

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

/** html: text/html, application/xhtml+xml; feed: XML/RSS/Atom/JSON feeds and gzip sitemaps; any: both. */
export type AcceptKind = "html" | "feed" | "any";

export interface FetchOptions {
  accept: AcceptKind;
  etag?: string | null;
  lastModified?: string | null;
  limits?: Partial<FetchLimits>;
  /** Overrides the media types `accept` allows; "*" allows any (robots.txt). */
  contentTypes?: readonly string[];
  /** Keep the first maxBytes and succeed instead of failing with too_large (robots.txt, RFC 9309 §2.5). */
  truncate?: boolean;
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

const HTML_TYPES = ["text/html", "application/xhtml+xml"];
const FEED_TYPES = [
  "application/xml",
  "text/xml",
  "application/rss+xml",
  "application/atom+xml",
  "application/rdf+xml",
  "application/rss",
  "application/atom",
  "application/feed+json",
  "application/json",
  "text/json",
  "application/x-gzip",
  "application/gzip",
  "application/x-gunzip",
];
/** Types that say nothing reliable; for feeds the body is sniffed instead. */
const VAGUE_TYPES = ["", "text/plain", "application/octet-stream", "binary/octet-stream"];
/** Feed hosts that label RSS as HTML; accepted for feeds only when the body is not an HTML page. */
const FEED_AS_HTML = "text/html";

const ACCEPT_HEADER: Record<AcceptKind, string> = {
  html: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
  feed: "application/rss+xml,application/atom+xml,application/feed+json,application/xml;q=0.9,text/xml;q=0.9,*/*;q=0.1",
  any: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.5",
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Content-Encodings a response may stack. Servers apply one (gzip or br); two leaves room for a proxy
 * that compresses again. Each listed coding costs a decoder before any body byte arrives: 21,000 `br`
 * in a 63 KB header took ~420 MB and 2.7 s to refuse.
 */
const MAX_ENCODINGS = 2;
/** Response headers may be this large (Node's default of 16 KiB is too small for some news sites' cookies). */
const MAX_HEADER_BYTES = 64 * 1024;
/** A discarded body up to this size, arriving within this time, is read to the end to keep its connection. */
const DRAIN_BYTES = 16 * 1024;
const DRAIN_MS = 2_000;
/** An idle kept-alive socket is closed after this long. */
const KEEP_ALIVE_MS = 4_000;

class TimeoutError extends Error {
  readonly code = "ETIMEDOUT";
  constructor(detail: string) {
    super(detail);
    this.name = "TimeoutError";
  }
}

class LimitError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "LimitError";
  }
}

/** Thrown inside the body pipeline to stop reading once a truncating fetch has enough. */
class EnoughError extends Error {}

function failureFor(status: number): FailureReason {
  if (status === 404) return "http_404";
  if (status === 410) return "http_410";
  if (status === 429) return "http_429";
  return status >= 500 ? "http_5xx" : "http_4xx";
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

function mediaType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

function allowedTypes(opts: FetchOptions): readonly string[] {
  if (opts.contentTypes) return opts.contentTypes;
  if (opts.accept === "html") return HTML_TYPES;
  if (opts.accept === "feed") return FEED_TYPES;
  return [...HTML_TYPES, ...FEED_TYPES];
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Does the body look like what was asked for, when the content type says nothing reliable? Feeds are
 * often served as text/html or text/plain: anything XML-ish that is not an HTML document, JSON, or gzip.
 */
function looksLikeDocument(bytes: Uint8Array, accept: AcceptKind): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 512))
    .toString("latin1")
    .replace(/^(\xef\xbb\xbf|\xfe\xff|\xff\xfe)/, "")
    .trimStart();
  const html = /^<(!doctype html|html|head|body)\b/i.test(head);
  if (accept === "html") return html || head.startsWith("<!--");
  const document = isGzip(bytes) || head.startsWith("{") || (head.startsWith("<") && !html);
  return accept === "any" ? document || html : document;
}

/** "deflate" is zlib-wrapped per RFC 9110 but some servers send raw deflate: pick by the first bytes. */
function deflateDecoder(): Transform {
  let inner: zlib.Inflate | zlib.InflateRaw | null = null;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!inner) {
        const b0 = chunk[0] ?? 0;
        const wrapped = chunk.length >= 2 && (b0 & 0x0f) === 8 && ((b0 << 8) | (chunk[1] ?? 0)) % 31 === 0;
        inner = wrapped ? zlib.createInflate() : zlib.createInflateRaw();
        inner.on("data", (d: Buffer) => this.push(d));
        inner.on("error", (e) => this.destroy(e));
      }
      inner.write(chunk, () => done());
    },
    flush(done) {
      if (!inner) return done();
      inner.once("end", () => done());
      inner.end();
    },
    destroy(err, done) {
      inner?.destroy();
      done(err);
    },
  });
}

function decoderFor(encoding: string): NodeJS.ReadWriteStream | Transform | null | "unsupported" {
  switch (encoding) {
    case "":
    case "identity":
    case "none":
      return null;
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return deflateDecoder();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return "unsupported";
  }
}

/**
 * Closes a response; a body not read to the end takes its socket with it. The abort error that
 * follows must not go unhandled.
 */
function drop(body: http.IncomingMessage): void {
  body.on("error", () => {});
  body.destroy();
}

/**
 * Drops a response body nobody will read. A short one (a redirect's, an error page's) is drained so
 * that its kept-alive socket can serve the next request; past DRAIN_BYTES or DRAIN_MS the socket
 * goes with it, so a hostile body is never read. Settles once the socket is back in the pool or gone.
 */
function discard(body: http.IncomingMessage): Promise<void> {
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
function classify(err: unknown, deadlineHit: boolean): { reason: FailureReason; detail: string } {
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
    // Deterministic, so not a transient network_error that would be retried.
    if (code === "HPE_HEADER_OVERFLOW") {
      return { reason: "too_large", detail: `response headers exceed ${MAX_HEADER_BYTES} bytes` };
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

function isStaleSocket(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && STALE_SOCKET_CODES.has(code);
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
      const fail = (err: Error) => {
        clearTimeout(headersTimer);
        reject(err);
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

  async fetch(url: string, opts: FetchOptions): Promise<FetchResult> {
    const limits: FetchLimits = { ...this.limits, ...opts.limits };
    const fail = (
      finalUrl: string,
      status: number | null,
      reason: FailureReason,
      detail: string,
    ): FetchFailure => ({
      ok: false,
      url,
      finalUrl,
      status,
      reason,
      detail,
    });

    const first = this.checkUrl(url);
    if (typeof first !== "string") return fail(url, null, first.reason, first.detail);

    const controller = new AbortController();
    let deadlineHit = false;
    const timer = setTimeout(() => {
      deadlineHit = true;
      controller.abort(new Error(`deadline of ${limits.totalTimeoutMs} ms exceeded`));
    }, limits.totalTimeoutMs);
    const redirects: string[] = [];
    const visited = new Set<string>([first]);
    let current = first;
    let status: number | null = null;
    const sent = this.requestHeaders(opts);
    try {
      for (;;) {
        const send = (fresh: boolean) => this.send(current, sent, limits, controller.signal, fresh);
        // A kept-alive socket the server closed while we were busy fails at once: a GET is safe to
        // send once more, on a fresh connection.
        const res = await send(false).catch((err: unknown) => {
          if (controller.signal.aborted || !isStaleSocket(err)) throw err;
          return send(true);
        });
        status = res.statusCode ?? 0;
        const headers = flattenHeaders(res.headers);

        if (REDIRECTS.has(status)) {
          await discard(res);
          const location = headers.location;
          if (!location) return fail(current, status, "network_error", `HTTP ${status} without Location`);
          const next = this.checkUrl(location, current);
          if (typeof next !== "string")
            return fail(current, status, next.reason, `redirect to ${location}: ${next.detail}`);
          if (visited.has(next)) return fail(current, status, "redirect_loop", `redirect back to ${next}`);
          if (redirects.length >= limits.maxRedirects) {
            return fail(current, status, "too_many_redirects", `more than ${limits.maxRedirects} redirects`);
          }
          visited.add(next);
          redirects.push(next);
          current = next;
          continue;
        }

        const contentType = headers["content-type"] ?? "";
        if (status === 304) {
          discard(res);
          if (!opts.etag && !opts.lastModified) {
            return fail(current, status, "http_4xx", "HTTP 304 to an unconditional request");
          }
          return {
            ok: true,
            url,
            finalUrl: current,
            status,
            notModified: true,
            headers,
            contentType,
            bytes: new Uint8Array(0),
            text: "",
            charset: "utf-8",
            redirects,
          };
        }
        if (status >= 400 || status < 200 || status >= 300) {
          discard(res);
          const reason = status >= 400 ? failureFor(status) : "network_error";
          return fail(current, status, reason, `HTTP ${status}`);
        }

        const type = mediaType(contentType);
        const allowed = allowedTypes(opts);
        const vague =
          type === "" ||
          (opts.accept === "feed" &&
            !opts.contentTypes &&
            (VAGUE_TYPES.includes(type) || type === FEED_AS_HTML));
        if (!allowed.includes("*") && !allowed.includes(type) && !vague) {
          discard(res);
          return fail(
            current,
            status,
            "not_html",
            `content type ${type || "(none)"} is not accepted for ${opts.accept}`,
          );
        }
        const declared = Number(headers["content-length"]);
        if (!opts.truncate && Number.isFinite(declared) && declared > limits.maxBytes) {
          discard(res);
          return fail(
            current,
            status,
            "too_large",
            `Content-Length ${declared} exceeds ${limits.maxBytes} bytes`,
          );
        }

        const body = await this.readBody(
          res,
          headers["content-encoding"] ?? "",
          limits.maxBytes,
          opts,
          controller.signal,
        );
        if (typeof body === "string") return fail(current, status, "bad_encoding", body);
        let bytes = body.bytes;
        let truncated = body.truncated;
        if (opts.accept !== "html" && isGzip(bytes)) {
          // A gzip file (sitemap.xml.gz) rather than a gzip transfer: inflate it under the same cap.
          try {
            bytes = zlib.gunzipSync(bytes, { maxOutputLength: limits.maxBytes });
          } catch (err) {
            const c = classify(err, false);
            if (c.reason !== "too_large" || !opts.truncate) {
              return fail(current, status, c.reason, `gzip body: ${c.detail}`);
            }
            bytes = new Uint8Array(0);
            truncated = true;
          }
        }
        if (!allowed.includes("*") && (vague || type === "") && !looksLikeDocument(bytes, opts.accept)) {
          return fail(
            current,
            status,
            "not_html",
            `content type ${type || "(none)"} and the body does not look like ${opts.accept}`,
          );
        }
        const decoded = decodeBody(bytes, contentType);
        return {
          ok: true,
          url,
          finalUrl: current,
          status,
          notModified: false,
          headers,
          contentType,
          bytes,
          text: decoded.text,
          charset: decoded.charset,
          redirects,
          ...(truncated ? { truncated } : {}),
        };
      }
    } catch (err) {
      const c = classify(err, deadlineHit);
      return fail(current, status, c.reason, c.detail);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Parses and vets a URL (or redirect target); IP literals are checked here so the failure names them. */
  private checkUrl(raw: string, base?: string): string | { reason: FailureReason; detail: string } {
    let u: URL;
    try {
      u = base === undefined ? new URL(raw.trim()) : new URL(raw.trim(), base);
    } catch {
      return { reason: "invalid_url", detail: `not a URL: ${raw.slice(0, 200)}` };
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") {
      return { reason: "bad_scheme", detail: `scheme ${u.protocol} is not http(s)` };
    }
    if (!u.hostname) return { reason: "invalid_url", detail: "no host" };
    const literal = parseIpLiteral(u.hostname);
    if (literal) {
      const why = blockedRange(literal.toString(), this.allowPrivate);
      if (why) return { reason: "blocked_address", detail: `${u.hostname} is ${why}` };
    }
    u.hash = "";
    return u.href;
  }

  private requestHeaders(opts: FetchOptions): Record<string, string> {
    const h: Record<string, string> = {
      "user-agent": this.userAgent,
      accept: opts.contentTypes?.includes("*") ? "*/*" : ACCEPT_HEADER[opts.accept],
      "accept-encoding": "gzip, deflate, br",
    };
    if (opts.etag) h["if-none-match"] = opts.etag;
    if (opts.lastModified) h["if-modified-since"] = opts.lastModified;
    return h;
  }

  /**
   * Streams the body through the Content-Encoding decoders, counting bytes before and after decompression
   * so neither a large body nor a compression bomb gets past maxBytes.
   */
  private async readBody(
    body: http.IncomingMessage,
    contentEncoding: string,
    maxBytes: number,
    opts: FetchOptions,
    signal: AbortSignal,
  ): Promise<{ bytes: Uint8Array; truncated: boolean } | string> {
    const encodings = contentEncoding
      .toLowerCase()
      .split(",")
      .map((e) => e.trim())
      .filter((e) => e && e !== "identity")
      .reverse();
    if (encodings.length > MAX_ENCODINGS) {
      drop(body);
      return `${encodings.length} stacked Content-Encodings; at most ${MAX_ENCODINGS} are decoded`;
    }
    const decoders: NodeJS.ReadWriteStream[] = [];
    for (const enc of encodings) {
      const d = decoderFor(enc);
      if (d === "unsupported") {
        drop(body);
        return `unsupported Content-Encoding ${contentEncoding.slice(0, 100)}`;
      }
      if (d) decoders.push(d);
    }
    let raw = 0;
    const countRaw = async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        raw += chunk.length;
        if (raw > maxBytes && !opts.truncate) throw new LimitError(`body exceeds ${maxBytes} bytes`);
        yield chunk;
      }
    };
    const chunks: Buffer[] = [];
    let total = 0;
    let truncated = false;
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        const room = maxBytes - total;
        if (chunk.length > room) {
          if (!opts.truncate) return done(new LimitError(`decoded body exceeds ${maxBytes} bytes`));
          chunks.push(chunk.subarray(0, room));
          total = maxBytes;
          truncated = true;
          return done(new EnoughError());
        }
        chunks.push(chunk);
        total += chunk.length;
        done();
      },
    });
    try {
      const streams: (NodeJS.ReadableStream | NodeJS.WritableStream)[] = [
        Readable.from(countRaw(body)),
        ...decoders,
        sink,
      ];
      await pipeline(streams, { signal });
    } catch (err) {
      if (!(err instanceof EnoughError)) throw err;
    } finally {
      drop(body);
    }
    return { bytes: Buffer.concat(chunks, total), truncated };
  }
}
