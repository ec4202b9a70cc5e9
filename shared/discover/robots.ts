/**
 * robots.txt per origin (scheme, host, port), fetched once per RobotsCache (one cache per run), with the
 * RFC 9309 error rules: 4xx → allow all; 5xx, 429, network failure or a blocked address → disallow all;
 * more than 5 redirects → unavailable (allow all); bodies over 500 KiB are parsed up to the cap.
 */
import robotsParser from "robots-parser";
import type { HttpClient } from "../fetch/http";
import { robotsToken } from "../fetch/user-agent";
import type { FailureReason } from "../records";

export interface RobotsRules {
  isAllowed(url: string): boolean;
  crawlDelaySeconds: number | null;
  sitemaps: string[];
  status: "ok" | "allow_all" | "disallow_all";
  /** Why the rules are what they are (HTTP status, failure), for logs and problems. */
  detail?: string;
  /** For `disallow_all`: what a URL of this origin is refused for (the host refused or unreachable, or
   * `robots_unavailable` when robots.txt answered 5xx/429), so a refusal is recorded for its cause. */
  reason?: FailureReason;
}

/** RFC 9309 §2.5: parsers must handle at least 500 KiB; content after that may be ignored. */
export const ROBOTS_MAX_BYTES = 500 * 1024;
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

export function parseRobots(robotsUrl: string, body: string, userAgent: string): RobotsRules {
  const token = robotsToken(userAgent);
  const robots = robotsParser(robotsUrl, body);
  const delay = robots.getCrawlDelay(token);
  const sitemaps: string[] = [];
  for (const s of robots.getSitemaps()) {
    // RFC 9309 §2.3.5: Sitemap: takes a fully qualified URL.
    if (!/^https?:\/\//i.test(s.trim())) continue;
    try {
      const u = new URL(s.trim());
      if ((u.protocol === "http:" || u.protocol === "https:") && !sitemaps.includes(u.href))
        sitemaps.push(u.href);
    } catch {
      // An unparseable Sitemap: line is ignored, as crawlers do.
    }
  }
  return {
    // robots-parser answers undefined for URLs of another origin; those are not this file's to forbid.
    isAllowed: (url: string) => robots.isAllowed(url, token) !== false,
    crawlDelaySeconds: typeof delay === "number" && Number.isFinite(delay) && delay > 0 ? delay : null,
    sitemaps,
    status: "ok",
    detail: "robots.txt parsed",
  };
}

export class RobotsCache {
  private readonly cache = new Map<string, Promise<RobotsRules>>();

  constructor(
    private readonly http: HttpClient,
    private readonly userAgent: string,
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
    });
    if (res.ok) return parseRobots(robotsUrl, res.text, this.userAgent);
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
