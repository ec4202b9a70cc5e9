/**
 * Which responses a fetch reads: the status (success, not modified, or the failure it maps to), the
 * media types each kind of fetch accepts, the declared length, and body sniffing where the type says
 * nothing reliable.
 */
import type { FailureReason } from "../records";
import { isGzip } from "./body-decoding";
import type { Refusal } from "./fetch-errors";

/** html: text/html, application/xhtml+xml; feed: XML/RSS/Atom/JSON feeds and gzip sitemaps; any: both. */
export type AcceptKind = "html" | "feed" | "any";

/** What a fetch asks for. */
export interface AcceptOptions {
  accept: AcceptKind;
  /** Overrides the media types `accept` allows; "*" allows any (robots.txt). */
  contentTypes?: readonly string[];
  /** Keep the first maxBytes and succeed instead of failing with too_large (robots.txt, RFC 9309 §2.5). */
  truncate?: boolean;
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

/** The request's Accept header. */
export function acceptHeader(opts: AcceptOptions): string {
  return opts.contentTypes?.includes("*") ? "*/*" : ACCEPT_HEADER[opts.accept];
}

function failureFor(status: number): FailureReason {
  if (status === 404) return "http_404";
  if (status === 410) return "http_410";
  if (status === 429) return "http_429";
  return status >= 500 ? "http_5xx" : "http_4xx";
}

function mediaType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

function allowedTypes(opts: AcceptOptions): readonly string[] {
  if (opts.contentTypes) return opts.contentTypes;
  if (opts.accept === "html") return HTML_TYPES;
  if (opts.accept === "feed") return FEED_TYPES;
  return [...HTML_TYPES, ...FEED_TYPES];
}

/** What to do with a (non-redirect) response, decided from its status and headers. */
export type Verdict =
  | { kind: "not_modified" }
  | { kind: "refuse"; refusal: Refusal }
  /** Read the body; `sniff` when its media type (`type`) says too little and the bytes must decide. */
  | { kind: "read"; type: string; sniff: boolean };

export function judgeResponse(
  status: number,
  headers: Record<string, string>,
  opts: AcceptOptions & { conditional: boolean },
  maxBytes: number,
): Verdict {
  if (status === 304) {
    if (!opts.conditional) {
      return {
        kind: "refuse",
        refusal: { reason: "http_4xx", detail: "HTTP 304 to an unconditional request" },
      };
    }
    return { kind: "not_modified" };
  }
  if (status < 200 || status >= 300) {
    const reason = status >= 400 ? failureFor(status) : "network_error";
    return { kind: "refuse", refusal: { reason, detail: `HTTP ${status}` } };
  }
  const type = mediaType(headers["content-type"] ?? "");
  const allowed = allowedTypes(opts);
  const vague =
    type === "" ||
    (opts.accept === "feed" && !opts.contentTypes && (VAGUE_TYPES.includes(type) || type === FEED_AS_HTML));
  if (!allowed.includes("*") && !allowed.includes(type) && !vague) {
    const detail = `content type ${type || "(none)"} is not accepted for ${opts.accept}`;
    return { kind: "refuse", refusal: { reason: "not_html", detail } };
  }
  const declared = Number(headers["content-length"]);
  if (!opts.truncate && Number.isFinite(declared) && declared > maxBytes) {
    const detail = `Content-Length ${declared} exceeds ${maxBytes} bytes`;
    return { kind: "refuse", refusal: { reason: "too_large", detail } };
  }
  return { kind: "read", type, sniff: !allowed.includes("*") && vague };
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

/** After reading a body the verdict said to sniff: refuses it unless it looks like what was asked for. */
export function sniffRefusal(
  bytes: Uint8Array,
  verdict: { type: string; sniff: boolean },
  accept: AcceptKind,
): Refusal | null {
  if (!verdict.sniff || looksLikeDocument(bytes, accept)) return null;
  const detail = `content type ${verdict.type || "(none)"} and the body does not look like ${accept}`;
  return { reason: "not_html", detail };
}
