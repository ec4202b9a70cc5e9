/**
 * robots.txt per origin (scheme, host, port), fetched once per RobotsCache (one cache per run), with the
 * RFC 9309 error rules: 4xx → allow all; 5xx, 429, network failure or a blocked address → disallow all;
 * more than 5 redirects → unavailable (allow all); bodies over 500 KiB are parsed up to the cap.
 */
import type { HttpClient } from "../fetch/http";
import { type Pacer, pacedBy } from "../fetch/request-pacing";
import { robotsToken } from "../fetch/user-agent";
import type { FailureReason } from "../records";
import { escapePath, ROBOTS_MAX_BYTES, RobotsTxt } from "./robots-txt";

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** As the file states it (≥ 0, Infinity for `1e999`); the politeness rule (shared/fetch/crawl-delay.ts) clamps it. */
  crawlDelaySeconds: number | null;
  sitemaps: string[];
  status: "ok" | "allow_all" | "disallow_all";
  /** Why the rules are what they are (HTTP status, failure), for logs and problems. */
  detail?: string;
  /** For `disallow_all`: what a URL of this origin is refused for (the host refused or unreachable, or
   * `robots_unavailable` when robots.txt answered 5xx/429), so a refusal is recorded for its cause. */
  reason?: FailureReason;
}

const ROBOTS_TIMEOUT_MS = 15_000;

function fixedRules(
  status: "allow_all" | "disallow_all",
  detail: string,
  reason?: FailureReason,
): RobotsRules {
  const allowed = status === "allow_all";
  return {
    isAllowed: () => allowed,
    crawlDelaySeconds: null,
    sitemaps: [],
    status,
    detail,
    ...(reason ? { reason } : {}),
  };
}

/** RFC 9309 §2.3.5: Sitemap: takes a fully qualified http(s) URL; anything else is ignored. */
function sitemapUrls(values: readonly string[]): string[] {
  const sitemaps: string[] = [];
  for (const s of values) {
    if (!/^https?:\/\//i.test(s)) continue;
    try {
      const href = new URL(s).href;
      if (!sitemaps.includes(href)) sitemaps.push(href);
    } catch {
      // An unparseable Sitemap: line is ignored, as crawlers do.
    }
  }
  return sitemaps;
}

/** The rules of `body` (the robots.txt at `robotsUrl`) for the crawler whose User-Agent is `userAgent`. */
export function parseRobots(
  robotsUrl: string,
  body: string,
  userAgent: string,
  opts: { truncated?: boolean } = {},
): RobotsRules {
  const robots = RobotsTxt.parse(body, opts);
  const token = robotsToken(userAgent);
  const rules = robots.rulesFor(token);
  const origin = new URL(robotsUrl).origin;
  return {
    isAllowed: (url: string) => {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return true; // not a URL of this origin: not this file's to forbid (the fetch refuses it)
      }
      if (u.origin !== origin) return true;
      // The URL parser percent-encodes non-ASCII; escapePath upper-cases %xx as the patterns are.
      return rules.allows(escapePath(u.pathname + u.search));
    },
    crawlDelaySeconds: robots.crawlDelaySeconds(token),
    sitemaps: sitemapUrls(robots.sitemaps),
    status: "ok",
    detail: "robots.txt parsed",
  };
}

export class RobotsCache {
  private readonly cache = new Map<string, Promise<RobotsRules>>();

  /** With a `pacer`, the robots.txt request keeps the host's pace like any other (its own Crawl-delay
   * is not known yet: the minimum applies). */
  constructor(
    private readonly http: HttpClient,
    private readonly userAgent: string,
    private readonly pacer?: Pacer,
  ) {}

  /** The rules for `url`'s origin; concurrent callers share one fetch. Never rejects. */
  rulesFor(url: string): Promise<RobotsRules> {
    let origin: string;
    try {
      const u = new URL(url);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("scheme");
      origin = u.origin;
    } catch {
      return Promise.resolve(
        fixedRules("disallow_all", `not an http(s) URL: ${url.slice(0, 200)}`, "invalid_url"),
      );
    }
    let rules = this.cache.get(origin);
    if (!rules) {
      rules = this.load(origin);
      this.cache.set(origin, rules);
    }
    return rules;
  }

  private async load(origin: string): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    const res = await this.http.fetch(robotsUrl, {
      accept: "any",
      contentTypes: ["*"],
      truncate: true,
      limits: { maxBytes: ROBOTS_MAX_BYTES, totalTimeoutMs: ROBOTS_TIMEOUT_MS },
      ...(this.pacer ? { pace: pacedBy(this.pacer, robotsUrl, null) } : {}),
    });
    if (res.ok) return parseRobots(robotsUrl, res.text, this.userAgent, { truncated: res.truncated });
    const why = `${robotsUrl}: ${res.reason} (${res.detail})`;
    if (res.status !== null && res.status >= 400 && res.status < 500 && res.status !== 429) {
      return fixedRules("allow_all", why);
    }
    if (res.reason === "too_many_redirects") return fixedRules("allow_all", why);
    // An answer (5xx, 429) means robots.txt is unavailable for now; no answer at all (a blocked
    // address, DNS failure, timeout) refuses the host itself, whatever its robots.txt says.
    return fixedRules("disallow_all", why, res.status !== null ? "robots_unavailable" : res.reason);
  }
}
