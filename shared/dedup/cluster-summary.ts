/**
 * Story summary arithmetic: the records a cluster is made of (summary, member, outlet sighting) and
 * how a summary grows by one article or by a whole merged cluster. Pure functions of their inputs.
 */
import type { ClusterMember, ClusterSummary } from "../records";
import { RECORD_VERSION } from "../records";
import type { DedupArticle, OutletSighting, OutletTally } from "./dedup-store";

/** Outlets needed before the spread figure is defined. */
export const SPREAD_OUTLETS = 10;

/** The tenth-earliest of the outlets' carried_at times. */
export function tenthCarriedAt(times: readonly string[]): string | null {
  if (times.length < SPREAD_OUTLETS) return null;
  return [...times].sort((a, b) => Date.parse(a) - Date.parse(b))[SPREAD_OUTLETS - 1] ?? null;
}

function earlier(aPublished: string | null, aId: string, bPublished: string | null, bId: string): boolean {
  if (aPublished !== bPublished) {
    if (aPublished === null) return false;
    if (bPublished === null) return true;
    const ta = Date.parse(aPublished);
    const tb = Date.parse(bPublished);
    if (ta !== tb) return ta < tb;
  }
  return aId < bId;
}

function minIso(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

function maxIso(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

export function memberOf(cluster_id: string, a: DedupArticle, similarity: number): ClusterMember {
  return {
    record_version: RECORD_VERSION,
    record_type: "member",
    cluster_id,
    item: `member#${a.article_id}`,
    article_id: a.article_id,
    url: a.url,
    publication: a.publication,
    source_id: a.source_id,
    published_at: a.published_at,
    collected_at: a.collected_at,
    similarity,
    moved_from: null,
    latest_revision: null,
  };
}

export function newSummary(cluster_id: string, a: DedupArticle, now: string): ClusterSummary {
  return {
    record_version: RECORD_VERSION,
    record_type: "summary",
    cluster_id,
    item: "summary",
    canonical_article_id: a.article_id,
    canonical_url: a.url,
    headline: a.headline,
    publication: a.publication,
    source_id: a.source_id,
    first_published_at: a.published_at,
    last_published_at: a.published_at,
    article_count: 1,
    outlet_count: 1,
    seconds_to_10_outlets: null,
    revision: 1,
    updated_at: now,
    merged_into: null,
  };
}

/** Seconds from the story's first publication until its tenth outlet carried it. */
function spreadSeconds(firstPublished: string | null, tenthAt: string | null): number | null {
  if (!firstPublished || !tenthAt) return null;
  return Math.max(0, (Date.parse(tenthAt) - Date.parse(firstPublished)) / 1000);
}

/** How an article counts for its outlet. */
export function sightingOf(a: DedupArticle): OutletSighting {
  return { source_id: a.source_id, publication: a.publication, carried_at: a.published_at ?? a.collected_at };
}

/** The summary grown by one article (canonical replaced when the article was published earlier). */
export function withArticle(
  s: ClusterSummary,
  a: DedupArticle,
  outlets: OutletTally,
  now: string,
): ClusterSummary {
  const isCanonical = earlier(a.published_at, a.article_id, s.first_published_at, s.canonical_article_id);
  const first = minIso(s.first_published_at, a.published_at);
  return {
    ...s,
    ...(isCanonical
      ? {
          canonical_article_id: a.article_id,
          canonical_url: a.url,
          headline: a.headline,
          publication: a.publication,
          source_id: a.source_id,
        }
      : {}),
    first_published_at: first,
    last_published_at: maxIso(s.last_published_at, a.published_at),
    article_count: s.article_count + 1,
    outlet_count: outlets.count,
    seconds_to_10_outlets: spreadSeconds(first, outlets.tenthAt),
    revision: s.revision + 1,
    updated_at: now,
  };
}

/** The winner grown by a whole loser cluster. */
export function withCluster(
  w: ClusterSummary,
  l: ClusterSummary,
  outlets: OutletTally,
  now: string,
): ClusterSummary {
  const loserCanonical = earlier(
    l.first_published_at,
    l.canonical_article_id,
    w.first_published_at,
    w.canonical_article_id,
  );
  return {
    ...w,
    ...(loserCanonical
      ? {
          canonical_article_id: l.canonical_article_id,
          canonical_url: l.canonical_url,
          headline: l.headline,
          publication: l.publication,
          source_id: l.source_id,
        }
      : {}),
    first_published_at: minIso(w.first_published_at, l.first_published_at),
    last_published_at: maxIso(w.last_published_at, l.last_published_at),
    article_count: w.article_count + l.article_count,
    outlet_count: outlets.count,
    seconds_to_10_outlets: spreadSeconds(minIso(w.first_published_at, l.first_published_at), outlets.tenthAt),
    revision: w.revision + 1,
    updated_at: now,
  };
}
