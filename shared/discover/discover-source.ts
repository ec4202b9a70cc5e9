/**
 * Discovery for one source: robots.txt (its Sitemap: lines too), the source's feeds and sitemaps,
 * sitemap indexes followed breadth-first within depth/count limits and loop-safe, then canonical URLs,
 * deduplicated, keeping only what changed since the source's last successful run.
 */

import { DEFAULT_MIN_HOST_DELAY_MS } from "../fetch/crawl-delay";
import { HostPacer } from "../fetch/host-pacer";
import type { FetchSuccess, HttpClient } from "../fetch/http";
import { type Pacer, pacedBy } from "../fetch/request-pacing";
import type { FailureReason } from "../records";
import { canonicalUrl, InvalidUrlError } from "../url/canonical-url";
import { parseFeed } from "./feed";
import { exactIso, type HintDate, latestPossibleMs, looseIso } from "./hint-date";
import { HostScope, OffScopeTally } from "./host-scope";
import type { RobotsCache } from "./robots";
import { parseSitemap, type SitemapUrl } from "./sitemap";
import type { Source } from "./sources";
import { wideXmlEncoding } from "./xml-encoding";

export interface DiscoveredUrl {
  url: string /* canonical */;
  discovered_from: string;
  lastmod: string | null;
  title: string | null;
  published_at: string | null;
  language: string | null;
}

export interface DiscoveryProblem {
  url: string;
  reason: FailureReason;
  detail: string;
}

export interface DiscoveryLimits {
  maxSitemapDepth: number;
  maxSitemaps: number;
  maxUrls: number;
  maxFeedItems: number;
  newsMaxAgeDays: number;
  /** Bytes per sitemap or feed after decompression (the sitemaps protocol allows 50 MB). */
  maxDocumentBytes: number;
}

export const DEFAULT_DISCOVERY_LIMITS: DiscoveryLimits = {
  maxSitemapDepth: 3,
  maxSitemaps: 50,
  maxUrls: 50_000,
  maxFeedItems: 1_000,
  newsMaxAgeDays: 3,
  maxDocumentBytes: 50 * 1024 * 1024,
};

export interface DiscoverOptions {
  http: HttpClient;
  robots: RobotsCache;
  /** Start of the source's last successful run; null for the first run. */
  since: Date | null;
  now: Date;
  limits?: Partial<DiscoveryLimits>;
  /** Paces every request (the Hosts table in Lambda, shared with fetch): the source's min_delay_ms is
   * passed with each request, as fetch does. By default a HostPacer of this call's own at the
   * deployment's default minimum. */
  pacer?: Pacer;
  /** Ends discovery early (the run's time budget): documents not yet read are skipped, what was found is returned. */
  signal?: AbortSignal;
  /** The re-check schedule (STORYTRAIL_RECHECK_HOURS, shared/crawl/recheck-schedule.ts): a URL dated by
   * its publication alone is listed again, though unchanged, around each step; default none. */
  recheckHours?: readonly number[];
}

/** A step's look is listed from its earliest due time (publication + step) for this long: the first fetch
 * comes after publication, and a step is taken at the first discovery run after it falls due. */
export const RECHECK_LISTING_HOURS = 3;

/** At most this many invalid-URL problems per source, then one summary. */
const MAX_INVALID_REPORTED = 20;
const DAY_MS = 86_400_000;

interface Hints {
  lastmod: HintDate | null;
  title: string | null;
  published: HintDate | null;
  language: string | null;
}

function normaliseLanguage(l: string | null): string | null {
  const t = l?.trim();
  return t && /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/.test(t) ? t.replace(/_/g, "-").toLowerCase() : null;
}

export async function discoverSource(
  source: Source,
  opts: DiscoverOptions,
): Promise<{ urls: DiscoveredUrl[]; problems: DiscoveryProblem[] }> {
  const limits: DiscoveryLimits = { ...DEFAULT_DISCOVERY_LIMITS, ...opts.limits };
  const pacer = opts.pacer ?? new HostPacer({ minDelayMs: DEFAULT_MIN_HOST_DELAY_MS });
  const sinceMs = opts.since ? opts.since.getTime() : null;
  const staleBeforeMs = opts.now.getTime() - limits.newsMaxAgeDays * DAY_MS;
  const found = new Map<string, DiscoveredUrl>();
  const problems: DiscoveryProblem[] = [];
  let invalid = 0;
  let overflow = 0;

  const changedSinceLastRun = (d: HintDate | null) =>
    sinceMs === null || d === null || latestPossibleMs(d) >= sinceMs;
  /** Listed though unchanged: no lastmod, and a step's listing window met this run (the claim says
   * whether the re-check is due: shared/aws/frontier-table.ts). */
  const listedForRecheck = (lastmod: HintDate | null, published: HintDate | null) => {
    if (lastmod !== null || published === null || sinceMs === null) return false;
    const p = latestPossibleMs(published);
    const nowMs = opts.now.getTime();
    return (opts.recheckHours ?? []).some((h) => {
      const due = p + h * 3_600_000;
      return due <= nowMs && due + RECHECK_LISTING_HOURS * 3_600_000 >= sinceMs;
    });
  };

  const add = (raw: string, from: string, hints: Hints): void => {
    let url: string;
    try {
      url = canonicalUrl(raw, from);
    } catch (err) {
      invalid++;
      if (invalid <= MAX_INVALID_REPORTED) {
        problems.push({
          url: raw.slice(0, 2000),
          reason: "invalid_url",
          detail: err instanceof InvalidUrlError ? err.message : String(err),
        });
      }
      return;
    }
    const lastmod = looseIso(hints.lastmod);
    const existing = found.get(url);
    if (existing) {
      if (lastmod && (!existing.lastmod || lastmod > existing.lastmod)) existing.lastmod = lastmod;
      existing.title ??= hints.title;
      existing.published_at ??= exactIso(hints.published);
      existing.language ??= normaliseLanguage(hints.language);
      return;
    }
    if (found.size >= limits.maxUrls) {
      overflow++;
      return;
    }
    found.set(url, {
      url,
      discovered_from: from,
      lastmod,
      title: hints.title,
      published_at: exactIso(hints.published),
      language: normaliseLanguage(hints.language),
    });
  };

  const fetchDocument = async (url: string): Promise<FetchSuccess | null> => {
    if (opts.signal?.aborted) return null;
    const rules = await opts.robots.rulesFor(url);
    if (rules.status === "disallow_all") {
      // Refused for its host (blocked address, DNS failure) or an unavailable robots.txt: say which.
      const reason = rules.reason ?? "robots_unavailable";
      problems.push({ url, reason, detail: `robots.txt not read: ${rules.detail ?? reason}` });
      return null;
    }
    if (!rules.isAllowed(url)) {
      problems.push({ url, reason: "robots_disallowed", detail: "disallowed by robots.txt" });
      return null;
    }
    const res = await opts.http.fetch(url, {
      accept: "feed",
      limits: { maxBytes: limits.maxDocumentBytes },
      pace: pacedBy(pacer, url, rules.crawlDelaySeconds, {
        ...(source.min_delay_ms === undefined ? {} : { minDelayMs: source.min_delay_ms }),
        ...(opts.signal ? { signal: opts.signal } : {}),
      }),
    });
    // A wait cut short by the run's time budget: the document is left for the next run.
    if (opts.signal?.aborted) return null;
    if (!res.ok) {
      problems.push({ url, reason: res.reason, detail: res.detail });
      return null;
    }
    return res;
  };

  const scope = new HostScope(source.homepage, source.allowed_hosts);
  /** Damage a lenient parse survived (its valid entries kept) and entries dropped off scope. */
  const reportDamage = (
    url: string,
    damage: string[],
    off: OffScopeTally,
    kind: "sitemap" | "feed",
  ): void => {
    if (damage.length > 0)
      problems.push({ url, reason: "parse_error", detail: `kept the valid entries; ${damage.join("; ")}` });
    const offDetail = off.detail(kind);
    if (offDetail) problems.push({ url, reason: "off_host", detail: offDetail });
  };

  const addFeedItems = (res: FetchSuccess): boolean => {
    const feedUrl = res.finalUrl;
    let feed: ReturnType<typeof parseFeed>;
    try {
      // UTF-16/32 bodies are decoded from their bytes (fetch's text reads them as UTF-8 without a BOM).
      feed = parseFeed(wideXmlEncoding(res.bytes) ? res.bytes : res.text, feedUrl, {
        maxItems: limits.maxFeedItems,
        contentLocation: res.headers["content-location"] ?? null,
      });
    } catch {
      return false;
    }
    if (feed.skipped > 0) {
      problems.push({
        url: feedUrl,
        reason: "too_large",
        detail: `feed has ${feed.items.length + feed.skipped} items; read the first ${limits.maxFeedItems}`,
      });
    }
    const off = new OffScopeTally();
    for (const item of feed.items) {
      if (!scope.inFeed(item.url, feedUrl)) {
        off.add(item.url);
        continue;
      }
      if (
        !changedSinceLastRun(item.updated ?? item.published) &&
        !listedForRecheck(item.updated, item.published)
      )
        continue;
      add(item.url, feedUrl, {
        lastmod: item.updated ?? item.published,
        title: item.title,
        published: item.published,
        language: item.language,
      });
    }
    reportDamage(feedUrl, feed.damage, off, "feed");
    return true;
  };

  // Sitemaps: the configured ones, then those robots.txt announces; breadth-first so maxSitemaps keeps the top.
  const homeRules = await opts.robots.rulesFor(source.homepage);
  const queue: { url: string; depth: number }[] = [];
  const queued = new Set<string>();
  const enqueue = (raw: string, base: string, depth: number): void => {
    let key: string;
    let url: string;
    try {
      url = new URL(raw.trim(), base).href;
      key = canonicalUrl(url);
    } catch (err) {
      problems.push({
        url: raw.slice(0, 2000),
        reason: "invalid_url",
        detail: `sitemap location: ${err instanceof InvalidUrlError ? err.message : "not a URL"}`,
      });
      return;
    }
    if (queued.has(key)) return;
    queued.add(key);
    queue.push({ url, depth });
  };
  for (const s of source.sitemaps) enqueue(s, source.homepage, 0);
  for (const s of homeRules.sitemaps) enqueue(s, source.homepage, 0);

  // Feeds (a feed URL that turns out to be a sitemap is read as one).
  for (const feedUrl of source.feeds) {
    const res = await fetchDocument(feedUrl);
    if (!res) continue;
    if (addFeedItems(res)) continue;
    try {
      parseSitemap(res.text, { onUrl: () => "stop" }); // only asks whether it is one
      enqueue(feedUrl, source.homepage, 0);
    } catch (err) {
      problems.push({
        url: feedUrl,
        reason: "parse_error",
        detail: err instanceof Error ? err.message : String(err),
      });
    }
  }

  let fetched = 0;
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (fetched >= limits.maxSitemaps) {
      problems.push({
        url: next.url,
        reason: "too_large",
        detail: `sitemap limit of ${limits.maxSitemaps} reached; ${queue.length + 1} sitemap(s) not read`,
      });
      break;
    }
    fetched++;
    const res = await fetchDocument(next.url);
    if (!res) continue;
    const off = new OffScopeTally();
    // URLs are taken as they are read: once the URL cap is reached the rest is counted, never built.
    const onUrl = (u: SitemapUrl): "stop" | undefined => {
      if (!scope.inSitemap(u.loc, res.finalUrl)) {
        off.add(u.loc);
        return undefined;
      }
      const published = u.news?.publishedAt ?? null;
      // Google News sitemaps list the last two days; anything older is stale whatever lastmod says.
      if (published && latestPossibleMs(published) < staleBeforeMs) return undefined;
      const changed = u.lastmod ?? published;
      if (!changedSinceLastRun(changed) && !listedForRecheck(u.lastmod, published)) return undefined;
      add(u.loc, res.finalUrl, {
        lastmod: changed,
        title: u.news?.title ?? null,
        published,
        language: u.news?.language ?? null,
      });
      return found.size >= limits.maxUrls ? "stop" : undefined;
    };
    let parsed: ReturnType<typeof parseSitemap>;
    try {
      parsed = parseSitemap(res.text, { onUrl });
    } catch (err) {
      // Sitemaps may be RSS or Atom feeds (sitemaps.org); try that before giving up.
      if (!addFeedItems(res)) {
        problems.push({
          url: next.url,
          reason: "parse_error",
          detail: err instanceof Error ? err.message : String(err),
        });
      }
      continue;
    }
    if (parsed.kind === "index") {
      if (next.depth + 1 > limits.maxSitemapDepth) {
        problems.push({
          url: next.url,
          reason: "too_large",
          detail: `sitemap index nested deeper than ${limits.maxSitemapDepth}; ${parsed.sitemaps.length} child sitemap(s) not read`,
        });
        continue;
      }
      // Newest first, so the count limit drops the oldest; unchanged children are not fetched at all.
      const children = parsed.sitemaps
        .filter((s) => changedSinceLastRun(s.lastmod))
        .sort(
          (a, b) => (b.lastmod?.ms ?? Number.POSITIVE_INFINITY) - (a.lastmod?.ms ?? Number.POSITIVE_INFINITY),
        );
      for (const child of children) {
        if (scope.inSitemap(child.loc, res.finalUrl)) enqueue(child.loc, res.finalUrl, next.depth + 1);
        else off.add(child.loc);
      }
    }
    overflow += parsed.skipped;
    reportDamage(next.url, parsed.damage, off, "sitemap");
  }

  if (invalid > MAX_INVALID_REPORTED) {
    problems.push({
      url: source.homepage,
      reason: "invalid_url",
      detail: `${invalid - MAX_INVALID_REPORTED} more invalid URL(s) not listed`,
    });
  }
  if (overflow > 0) {
    problems.push({
      url: source.homepage,
      reason: "too_large",
      detail: `URL limit of ${limits.maxUrls} reached; ${overflow} more URL(s) dropped`,
    });
  }
  return { urls: [...found.values()], problems };
}
