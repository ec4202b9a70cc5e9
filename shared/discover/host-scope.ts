/**
 * Which hosts a source's sitemaps and feeds may list. A hostile or careless document can list a third
 * party's pages (metadata, private addresses the fetch guard will refuse, another outlet's articles
 * filed under this source), so entries off scope are dropped and counted.
 * - Sitemaps: sitemaps.org allows URLs on the sitemap's own host only. We also accept the homepage's
 *   host (a sitemap served from a CDN or a sitemaps.* host, cross-submitted through robots.txt) and the
 *   source's `allowed_hosts`. Child sitemaps of an index obey the same rule, so an index cannot hand
 *   the scope to another host whose sitemap would then vouch for itself.
 * - Feeds legitimately live on other hosts than their pages (feeds.bbci.co.uk lists www.bbc.co.uk,
 *   FeedBurner's origLink), so a feed entry may be on the feed's or the homepage's registrable domain,
 *   or an allowed host; an aggregator feed needs its outlets listed in `allowed_hosts`.
 * Hosts compare without "www." and port; `allowed_hosts` entries match the host, its subdomains, or a
 * registrable domain. The scheme is judged before the host: a non-http(s) link (ftp:, file:, mailto:,
 * javascript:, data: …) is in scope here whatever its host, so that it is reported as invalid_url (by
 * canonicalUrl) rather than off_host.
 */
import { getDomain } from "tldts";
import { hostOf } from "../url/canonical-url";

/** The host of an http(s) URL; null for anything else (not a URL, relative, another scheme). */
function safeHost(url: string): string | null {
  if (!/^\s*https?:/i.test(url)) return null;
  try {
    return hostOf(url);
  } catch {
    return null;
  }
}

function siteOf(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

export class HostScope {
  private readonly homeHost: string | null;
  private readonly allowed: string[];

  constructor(homepage: string, allowedHosts: readonly string[] = []) {
    this.homeHost = safeHost(homepage);
    this.allowed = allowedHosts
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^www\./, ""),
      )
      .filter(Boolean);
  }

  private isAllowed(host: string): boolean {
    return this.allowed.some((a) => host === a || host.endsWith(`.${a}`));
  }

  /** A sitemap entry (URL or child sitemap) listed by the sitemap at `sitemapUrl`. */
  inSitemap(url: string, sitemapUrl: string): boolean {
    const host = safeHost(url);
    if (host === null) return true; // not an http(s) URL: reported as invalid_url downstream
    return host === safeHost(sitemapUrl) || host === this.homeHost || this.isAllowed(host);
  }

  /** A feed entry listed by the feed at `feedUrl`. */
  inFeed(url: string, feedUrl: string): boolean {
    const host = safeHost(url);
    if (host === null) return true;
    const site = siteOf(host);
    const feedHost = safeHost(feedUrl);
    return (
      (feedHost !== null && site === siteOf(feedHost)) ||
      (this.homeHost !== null && site === siteOf(this.homeHost)) ||
      this.isAllowed(host)
    );
  }
}

/** Tallies the entries a document listed off scope, for one problem per document naming a few hosts. */
export class OffScopeTally {
  private count = 0;
  private readonly hosts = new Set<string>();

  add(url: string): void {
    this.count++;
    const host = safeHost(url);
    if (host && this.hosts.size < 5) this.hosts.add(host);
  }

  /** The problem detail, or null when nothing was dropped. */
  detail(kind: "sitemap" | "feed"): string | null {
    if (this.count === 0) return null;
    const rule =
      kind === "sitemap"
        ? "not on the sitemap's host or the homepage's"
        : "not on the feed's or the homepage's registrable domain";
    return `${this.count} entr${this.count === 1 ? "y" : "ies"} ${rule} and not in allowed_hosts dropped (${[...this.hosts].join(", ")})`;
  }
}
