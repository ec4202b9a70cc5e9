/**
 * Which source an archived page belongs to: the configured source whose homepage, feeds or sitemaps
 * share its host (else its registrable domain), or, with no such source, a source named after the
 * page's registrable domain.
 */
import { getDomain } from "tldts";
import { type Source, type SourceFetchSettings, sourceFetchSettings } from "../discover/sources";

export interface PageSource {
  readonly source_id: string;
  readonly publication: string;
  readonly language: string | null;
  /** The source's canonical partners, applied to its archived pages as fetch applies them. */
  readonly settings: SourceFetchSettings;
}

const bareHost = (url: string) => new URL(url).hostname.toLowerCase().replace(/^www\./, "");
const siteOf = (host: string) => getDomain(host, { allowPrivateDomains: true }) ?? host;

export class SourceLookup {
  private readonly byHost = new Map<string, PageSource>();
  private readonly bySite = new Map<string, PageSource>();

  constructor(sources: readonly Source[] = []) {
    for (const s of sources) {
      const named: PageSource = {
        source_id: s.id,
        publication: s.publication,
        language: s.language ?? null,
        settings: sourceFetchSettings(s),
      };
      for (const url of [s.homepage, ...s.feeds, ...s.sitemaps]) {
        const host = bareHost(url);
        if (!this.byHost.has(host)) this.byHost.set(host, named);
        if (!this.bySite.has(siteOf(host))) this.bySite.set(siteOf(host), named);
      }
    }
  }

  sourceOf(url: string): PageSource {
    const host = bareHost(url);
    const site = siteOf(host);
    return (
      this.byHost.get(host) ??
      this.bySite.get(site) ?? { source_id: site, publication: site, language: null, settings: {} }
    );
  }
}
