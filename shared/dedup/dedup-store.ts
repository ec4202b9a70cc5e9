/**
 * The dedup store port: what the clusterer (clusterer.ts) reads and writes, and the records it
 * passes. The in-memory store (memory-dedup-store.ts) and the DynamoDB adapter
 * (shared/aws/dedup-tables.ts) implement it.
 */
import type { ArticleRevision, ClusterMember, ClusterSummary } from "../records";
import type { Fingerprint } from "./fingerprint";

export interface DedupArticle {
  article_id: string;
  url: string;
  publication: string;
  source_id: string;
  headline: string | null;
  published_at: string | null;
  collected_at: string;
  fingerprint: Fingerprint;
}

/** The per-article fingerprint item: written once, by whichever delivery of the article claims it. */
export interface IndexedArticle extends DedupArticle {
  /** The cluster the claiming delivery chose (joined or founded); may since be retired (follow
   * merged_into). Every delivery and retry of the article follows this choice. */
  cluster_id: string;
  /** Estimated similarity to the article it was confirmed against (1 when it founded the cluster). */
  similarity: number;
  /** Epoch seconds from which a store that expires its index (DynamoDB TTL: the LSH retention from the
   * claim) treats the article as absent; undefined in stores that keep everything. */
  expires_at?: number;
}

/** The per-article dedup state a store may keep (StoryStates). */
export interface ArticleStory {
  /** The story the article is in now: merges repoint it. */
  readonly cluster_id: string;
  /** Every step of addArticle has run (a redelivery returns at once). */
  readonly done: boolean;
}

/**
 * Per-article story state: a shortcut, never needed for correctness. Without it an article's story is its
 * claim's cluster (IndexedArticle.cluster_id) followed through merged_into, and a redelivery re-runs
 * addArticle's steps, which are idempotent. The one-machine stores keep it (free, and `dedup` resumes
 * from it); the DynamoDB adapter does not: it cost every article a write unit (and a read), $0.63 + $0.13
 * a million, to spare the rare redelivery its work.
 */
export interface StoryStates {
  getStory(article_id: string): Promise<ArticleStory | null>;
  /** Points the article's state at a cluster (after a merge moved its member), creating it if need be. */
  setArticleCluster(article_id: string, cluster_id: string): Promise<void>;
  /** Points the article's state at its cluster and marks it done. */
  finishArticle(article_id: string, cluster_id: string): Promise<void>;
}

/** A conditional write found another revision than expected: re-run addArticle (it is idempotent). */
export class DedupConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DedupConflictError";
  }
}

/** What a bucket look-up found: candidate ids, and the keys whose bucket already holds the cap. */
export interface BucketHits {
  readonly ids: string[];
  /** Each id's candidate digest as filed with it (ids filed without one are absent). */
  readonly digests: ReadonlyMap<string, Uint8Array>;
  /** Hot buckets (boilerplate shared by many pages): an article is not filed in them any more. */
  readonly full: number[];
}

/** An outlet (a configured source) that carried the story, and when (its copy's published_at, else
 * collected_at). */
export interface OutletSighting {
  readonly source_id: string;
  readonly publication: string;
  readonly carried_at: string;
}

/** The outlet set after an addOutlets. */
export interface OutletTally {
  readonly count: number;
  /** The tenth-earliest carried_at: when the story reached ten outlets (null below ten). */
  readonly tenthAt: string | null;
}

/**
 * Storage for the clusterer. Band keys are numbers (band * 2^32 + hash); a table adapter stores
 * bandKeyString(key, …) as the partition key (one item per band per article). Every method must be
 * safe to repeat. Methods marked atomic are one conditional transaction in a table adapter; a failed
 * revision condition throws DedupConflictError. A store whose items expire (DynamoDB TTL, which deletes
 * lazily: days late) reads an item past its `expires_at` as absent, and may write over it where a write
 * expects none: an expired article or story is not there, whatever the table still holds.
 */
export interface DedupStore {
  getArticle(article_id: string): Promise<IndexedArticle | null>;
  /** Batch read; ids with no item are skipped. */
  getArticles(article_ids: readonly string[]): Promise<IndexedArticle[]>;
  /** Puts the fingerprint item unless the article has one; returns the stored item (the first claim
   * wins, so concurrent deliveries of one article agree on its cluster). */
  claimArticle(article: IndexedArticle): Promise<IndexedArticle>;
  /** Replaces the claim when it still names `from`, a cluster that is gone (its story expired), by
   * `article`'s; returns the stored claim (another delivery's, when that one re-claimed first). */
  reclaimArticle(article: IndexedArticle, from: string): Promise<IndexedArticle>;
  /** Each article's story and whether dedup finished it, if the store keeps them (StoryStates). */
  readonly storyStates?: StoryStates;
  /** Distinct article ids filed under any of the keys, at most `limitPerBucket` from each bucket. */
  queryBuckets(
    keys: readonly number[],
    limitPerBucket: number,
    opts?: { consistent?: boolean },
  ): Promise<BucketHits>;
  /** Files the article under each key with its candidate digest (idempotent). `expiresAt` (epoch
   * seconds) is when a store that expires entries drops them; by default its retention from now. */
  addToBuckets(
    keys: readonly number[],
    article_id: string,
    digest: Uint8Array,
    expiresAt?: number,
  ): Promise<void>;
  /**
   * Whether the article is filed under any of the keys for its current claim (an entry expiring no
   * earlier than the claim). The clusterer files an article only after it joined its claimed story, so
   * a filed article whose member is gone was counted: its member expired.
   */
  isFiled(claim: IndexedArticle, keys: readonly number[]): Promise<boolean>;
  getCluster(cluster_id: string): Promise<ClusterSummary | null>;
  getMember(cluster_id: string, article_id: string): Promise<ClusterMember | null>;
  listMembers(cluster_id: string): AsyncIterable<ClusterMember>;
  /**
   * Puts the first member, then the summary (revision 1) on condition that no summary exists (else
   * DedupConflictError). Not atomic, and need not be: a retry after a crash between the two writes
   * finds no summary and writes both again, and no other article finds the cluster before its
   * founder has filed itself in the buckets, after this returns.
   */
  createCluster(summary: ClusterSummary, member: ClusterMember): Promise<void>;
  /**
   * Atomic: puts the member if it is not there yet and, only then, the summary (stored revision must
   * equal `expectedRevision`). Returns false, writing nothing, when the member already existed.
   */
  joinCluster(summary: ClusterSummary, expectedRevision: number, member: ClusterMember): Promise<boolean>;
  /** Atomic: puts the retired loser and the grown winner, each checked against its expected revision. */
  retireCluster(
    loser: ClusterSummary,
    loserExpectedRevision: number,
    winner: ClusterSummary,
    winnerExpectedRevision: number,
  ): Promise<void>;
  /** Atomic: puts `member` (already renamed to the new cluster) and deletes it from `fromCluster`. */
  moveMember(member: ClusterMember, fromCluster: string): Promise<void>;
  /**
   * Adds outlets to the cluster's outlet set, keeping each outlet's earliest carried_at (commutative,
   * so concurrent writers agree); returns the set's size and tenth-earliest carried_at afterwards.
   */
  addOutlets(cluster_id: string, sightings: readonly OutletSighting[]): Promise<OutletTally>;
  /** addOutlets without the tally, for a founder, which knows it (its own outlet): a table adapter
   * saves the read of the outlet items. */
  keepOutlets(cluster_id: string, sightings: readonly OutletSighting[]): Promise<void>;
  listOutlets(cluster_id: string): AsyncIterable<OutletSighting>;
  /** Deletes the outlet items of a retired cluster (their sightings live on in the winner's). */
  removeOutlets(cluster_id: string, source_ids: readonly string[]): Promise<void>;
  /**
   * Sets the member's `latest_revision` unless it has this revision or a later one ("current"):
   * repeating it changes nothing. "missing" when the cluster has no member for the article.
   */
  reviseMember(
    cluster_id: string,
    article_id: string,
    revision: ArticleRevision,
  ): Promise<"revised" | "current" | "missing">;
}

/** What reviseMember does to a member read from a store that holds it as a value. */
export function revisedMember(
  member: ClusterMember | null,
  revision: ArticleRevision,
): ClusterMember | "current" | "missing" {
  if (!member) return "missing";
  if ((member.latest_revision?.number ?? 0) >= revision.number) return "current";
  return { ...member, latest_revision: revision };
}
