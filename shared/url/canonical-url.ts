/**
 * Canonical URLs: one spelling per page, so a page reached through a feed, a sitemap, an AMP cache or a
 * tracking link gets one article_id. Rules are syntactic only (no network); see test/shared/url.
 */
import { createHash } from "node:crypto";
import { getDomain } from "tldts";
import { canonicalQueryPart, canonicalSegment } from "./percent-encoding";
import { isTrackingParam } from "./tracking-params";

export class InvalidUrlError extends Error {
  constructor(
    readonly input: string,
    detail: string,
  ) {
    super(`invalid URL ${JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input)}: ${detail}`);
    this.name = "InvalidUrlError";
  }
}

/** Query parameters that select an AMP or print rendering of the same article, by accepted values. */
const VARIANT_PARAMS: Readonly<Record<string, readonly string[] | "any">> = {
  amp: ["", "1", "true", "yes"],
  _amp: ["", "1", "true", "yes"],
  outputtype: ["amp", "print"],
  output: ["amp", "print"],
  rendertype: ["amp"],
  view: ["amp", "print"],
  print: ["", "1", "true", "yes"],
  // Parameters the AMP viewers append.
  amp_js_v: "any",
  amp_gsa: "any",
  amp_ct: "any",
  amp_tf: "any",
  amp_r: "any",
  ampshare: "any",
  usqp: "any",
  __amp_source_origin: "any",
};

/** Trailing path segments that name an AMP or print rendering. */
const VARIANT_SEGMENTS = new Set(["amp", "print"]);

/** AMP cache wrappers unwrapped one inside another; real links carry one, a deeper nest is refused. */
const MAX_AMP_WRAPPERS = 3;

function parseHttpUrl(raw: string, base?: string): URL {
  const trimmed = raw.trim();
  if (!trimmed) throw new InvalidUrlError(raw, "empty");
  let url: URL;
  try {
    url = base === undefined ? new URL(trimmed) : new URL(trimmed, base);
  } catch {
    throw new InvalidUrlError(raw, "not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidUrlError(raw, `scheme ${url.protocol.replace(/:$/, "")} is not http(s)`);
  }
  if (!url.hostname) throw new InvalidUrlError(raw, "no host");
  return url;
}

/** AMP caches and viewers wrap the publisher URL: .cdn.ampproject.org/c/s/host/path and google.com/amp/s/host/path. */
function unwrapOnce(url: URL): URL {
  const host = url.hostname;
  let inner: RegExpExecArray | null = null;
  if (host === "cdn.ampproject.org" || host.endsWith(".cdn.ampproject.org")) {
    inner = /^\/(?:c|v|i|a|r|wp)\/(s\/)?(.+)$/.exec(url.pathname);
  } else if (/^(?:www\.)?google\.[a-z.]+$/.test(host)) {
    inner = /^\/amp\/(s\/)?(.+)$/.exec(url.pathname);
  }
  if (!inner) return url;
  try {
    const unwrapped = new URL(`${inner[1] ? "https" : "http"}://${inner[2]}${url.search}`);
    return unwrapped.hostname.includes(".") ? unwrapped : url;
  } catch {
    return url;
  }
}

/** The publisher URL inside AMP cache wrappers, however many (up to MAX_AMP_WRAPPERS) are nested. */
function unwrapAmpCache(url: URL, raw: string): URL {
  let current = url;
  for (let depth = 0; ; depth++) {
    const inner = unwrapOnce(current);
    if (inner === current) return current;
    if (depth === MAX_AMP_WRAPPERS)
      throw new InvalidUrlError(raw, `more than ${MAX_AMP_WRAPPERS} nested AMP caches`);
    current = inner;
  }
}

/**
 * Lower case (WHATWG did that), no trailing dots, one leading `www.` dropped. Not when what is left has
 * no dot (`www.com`) or starts with `www.` itself: `www.www.example.com` stays as it is, or its canonical
 * form would canonicalise again to a third spelling (normalize-url keeps it too).
 */
function canonicalHost(url: URL): string {
  // A scan, not /\.+$/: that regex is quadratic in a run of dots (20,000 of them mid-host took 3.3 s).
  let end = url.hostname.length;
  while (end > 0 && url.hostname[end - 1] === ".") end--;
  let host = url.hostname.slice(0, end);
  if (!host) throw new InvalidUrlError(url.href, "no host");
  const rest = host.slice(4);
  if (host.startsWith("www.") && rest.includes(".") && !rest.startsWith("www.")) host = rest;
  return host;
}

/**
 * `story.amp.html` → `story.html`, and every `.amp` before the extension, so the result cannot change
 * again. String ends, not a regex loop: linear however many `.amp`s a hostile URL repeats.
 */
function dropAmpExtension(segment: string): string {
  const ext = /\.html?$/i.exec(segment)?.[0];
  if (!ext) return segment;
  let stem = segment.slice(0, -ext.length);
  while (stem.slice(-4).toLowerCase() === ".amp") stem = stem.slice(0, -4);
  return stem + ext;
}

function canonicalPath(pathname: string): string {
  const segments = pathname.split("/").map(canonicalSegment);
  // segments[0] is the empty string before the leading slash.
  for (;;) {
    const last = segments[segments.length - 1];
    if (segments.length > 1 && last === "") segments.pop();
    else if (segments.length > 1 && last !== undefined && VARIANT_SEGMENTS.has(last.toLowerCase()))
      segments.pop();
    else break;
  }
  const lastIndex = segments.length - 1;
  if (lastIndex > 0) segments[lastIndex] = dropAmpExtension(segments[lastIndex] ?? "");
  const path = segments.join("/");
  return path === "" ? "/" : path;
}

function isVariantParam(name: string, value: string | null): boolean {
  // Own keys only: a parameter named __proto__ or constructor must not reach Object.prototype.
  if (!Object.hasOwn(VARIANT_PARAMS, name)) return false;
  const accepted = VARIANT_PARAMS[name];
  if (accepted === undefined) return false;
  if (accepted === "any") return true;
  return accepted.includes((value ?? "").toLowerCase());
}

/**
 * Parameters as application/x-www-form-urlencoded reads them, each name and value in one spelling
 * (percent-encoding.ts); tracking and AMP/print parameters dropped, exact repeats dropped, sorted.
 * `a` and `a=` stay apart: a bare key is how some sites route (`index.php?/path`).
 */
function canonicalQuery(search: string): string {
  const kept: [string, string][] = [];
  const seen = new Set<string>();
  for (const piece of search.replace(/^\?/, "").split("&")) {
    if (!piece) continue;
    const eq = piece.indexOf("=");
    const name = canonicalQueryPart(eq < 0 ? piece : piece.slice(0, eq));
    const value = eq < 0 ? null : canonicalQueryPart(piece.slice(eq + 1));
    const key = name.text.toLowerCase();
    if (!key || isTrackingParam(key) || isVariantParam(key, value === null ? null : value.text)) continue;
    const pair = value === null ? name.spelling : `${name.spelling}=${value.spelling}`;
    if (seen.has(pair)) continue;
    seen.add(pair);
    kept.push([name.spelling, pair]);
  }
  // Sort by name, then by the whole pair; the sort is stable so repeated names keep a deterministic order.
  kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return kept.map(([, pair]) => pair).join("&");
}

/**
 * The canonical spelling of an http(s) URL: lower-case scheme and host, no www., no default port,
 * IDN as punycode, AMP caches unwrapped, /amp and /print suffixes and AMP/print query variants dropped,
 * tracking parameters dropped, query sorted, no trailing slash, no fragment, no credentials,
 * percent-encoding normalised. Throws InvalidUrlError on anything that is not an http(s) URL.
 */
export function canonicalUrl(raw: string, base?: string): string {
  const url = unwrapAmpCache(parseHttpUrl(raw, base), raw);
  const host = canonicalHost(url);
  const port = url.port ? `:${url.port}` : "";
  const path = canonicalPath(url.pathname);
  const query = canonicalQuery(url.search);
  return `${url.protocol}//${host}${port}${path}${query ? `?${query}` : ""}`;
}

/** Registrable domain (eTLD+1, private suffixes count), or the bare host for IPs and single labels. */
function siteOf(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

function isPartner(host: string, partners: readonly string[]): boolean {
  const site = siteOf(host);
  return partners.some((p) => {
    const partner = p
      .trim()
      .toLowerCase()
      .replace(/^www\./, "");
    return partner !== "" && (host === partner || host.endsWith(`.${partner}`) || site === partner);
  });
}

/**
 * The article's canonical URL given the page's own rel=canonical: the declared canonical wins only when it
 * stays on the page's registrable domain or an allow-listed syndication partner, and is not the bare
 * homepage (a common template bug); otherwise the canonical form of the fetched URL.
 */
export function resolveCanonical(
  pageUrl: string,
  pageCanonical: string | null,
  opts: { partners?: readonly string[] } = {},
): string {
  const page = canonicalUrl(pageUrl);
  if (!pageCanonical?.trim()) return page;
  let declared: string;
  try {
    declared = canonicalUrl(pageCanonical, page);
  } catch {
    return page;
  }
  if (declared === page) return page;
  const pageParsed = new URL(page);
  const declaredParsed = new URL(declared);
  const sameSite = siteOf(pageParsed.hostname) === siteOf(declaredParsed.hostname);
  if (!sameSite && !isPartner(declaredParsed.hostname, opts.partners ?? [])) return page;
  if (declaredParsed.pathname === "/" && !declaredParsed.search && pageParsed.pathname !== "/") return page;
  return declared;
}

/** The Articles table key: sha256 hex of the canonical URL, first 32 characters. */
export function articleIdFor(canonical: string): string {
  return createHash("sha256").update(canonical).digest("hex").slice(0, 32);
}

/** Lower-case host without www. and without port: the per-host pacing key (FIFO MessageGroupId). */
export function hostOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new InvalidUrlError(url, "not a URL");
  }
  if (!parsed.hostname) throw new InvalidUrlError(url, "no host");
  return canonicalHost(parsed);
}
