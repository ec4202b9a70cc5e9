/**
 * In-memory DedupStore: the same clustering code as the dedup Lambda, over Maps. Used by
 * `storytrail dedup`, the evaluation and the tests. Each call is atomic (no await inside); concurrent
 * callers interleave between calls (test/shared/dedup/concurrent-add.test.ts drives them so), and the
 * version conditions are checked as a table adapter checks them.
 * Buckets hold small integers (one per article) rather than id strings to keep 100k articles well
 * under 1 GiB.
 */
import type { ArticleRevision, ClusterMember, ClusterSummary } from "../records";
import { tenthCarriedAt } from "./cluster-summary";
import {
  type ArticleStory,
  type BucketHits,
  DedupConflictError,
  type DedupStore,
  type IndexedArticle,
  type OutletSighting,
  type OutletTally,
  revisedMember,
  type StoryStates,
} from "./dedup-store";

export class MemoryDedupStore implements DedupStore {
  private readonly articles = new Map<string, IndexedArticle>();
  private readonly stories = new Map<string, ArticleStory>();
  private readonly ordinal = new Map<string, number>();
  private readonly idOf: string[] = [];
  private readonly buckets = new Map<number, number | number[]>();
  /** Candidate digest per article ordinal, as filed with its bucket entries. */
  private readonly digests: Uint8Array[] = [];
  private readonly clusters = new Map<string, ClusterSummary>();
  private readonly members = new Map<string, Map<string, ClusterMember>>();
  /** Per cluster, per source_id: the outlet's publication and earliest carried_at. */
  private readonly outlets = new Map<string, Map<string, OutletSighting>>();

  async getArticle(article_id: string): Promise<IndexedArticle | null> {
    return this.articles.get(article_id) ?? null;
  }

  async getArticles(article_ids: readonly string[]): Promise<IndexedArticle[]> {
    const out: IndexedArticle[] = [];
    for (const id of article_ids) {
      const a = this.articles.get(id);
      if (a) out.push(a);
    }
    return out;
  }

  async claimArticle(article: IndexedArticle): Promise<IndexedArticle> {
    const stored = this.articles.get(article.article_id);
    if (stored) return stored;
    this.articles.set(article.article_id, article);
    return article;
  }

  async reclaimArticle(article: IndexedArticle, from: string): Promise<IndexedArticle> {
    const stored = this.articles.get(article.article_id);
    if (stored && stored.cluster_id !== from) return stored;
    this.articles.set(article.article_id, article);
    return article;
  }

  readonly storyStates: StoryStates = this;

  async getStory(article_id: string): Promise<ArticleStory | null> {
    return this.stories.get(article_id) ?? null;
  }

  async setArticleCluster(article_id: string, cluster_id: string): Promise<void> {
    this.stories.set(article_id, { cluster_id, done: this.stories.get(article_id)?.done ?? false });
  }

  async finishArticle(article_id: string, cluster_id: string): Promise<void> {
    this.stories.set(article_id, { cluster_id, done: true });
  }

  private ordinalOf(article_id: string): number {
    let n = this.ordinal.get(article_id);
    if (n === undefined) {
      n = this.idOf.length;
      this.idOf.push(article_id);
      this.ordinal.set(article_id, n);
    }
    return n;
  }

  async queryBuckets(keys: readonly number[], limitPerBucket: number): Promise<BucketHits> {
    const seen = new Set<number>();
    const full: number[] = [];
    for (const k of keys) {
      const b = this.buckets.get(k);
      if (b === undefined) continue;
      if (typeof b === "number") {
        seen.add(b);
        if (limitPerBucket <= 1) full.push(k);
      } else {
        for (let i = 0; i < b.length && i < limitPerBucket; i++) seen.add(b[i]!);
        if (b.length >= limitPerBucket) full.push(k);
      }
    }
    const ids: string[] = [];
    const digests = new Map<string, Uint8Array>();
    for (const n of seen) {
      const id = this.idOf[n]!;
      ids.push(id);
      const d = this.digests[n];
      if (d) digests.set(id, d);
    }
    return { ids, full, digests };
  }

  async addToBuckets(keys: readonly number[], article_id: string, digest: Uint8Array): Promise<void> {
    const n = this.ordinalOf(article_id);
    this.digests[n] = digest;
    for (const k of keys) {
      const b = this.buckets.get(k);
      if (b === undefined) this.buckets.set(k, n);
      else if (typeof b === "number") {
        if (b !== n) this.buckets.set(k, [b, n]);
      } else if (!b.includes(n)) b.push(n);
    }
  }

  async isFiled(claim: IndexedArticle, keys: readonly number[]): Promise<boolean> {
    const n = this.ordinal.get(claim.article_id);
    if (n === undefined) return false;
    return keys.some((k) => {
      const b = this.buckets.get(k);
      return b === n || (Array.isArray(b) && b.includes(n));
    });
  }

  async getCluster(cluster_id: string): Promise<ClusterSummary | null> {
    return this.clusters.get(cluster_id) ?? null;
  }

  async getMember(cluster_id: string, article_id: string): Promise<ClusterMember | null> {
    return this.members.get(cluster_id)?.get(article_id) ?? null;
  }

  async *listMembers(cluster_id: string): AsyncIterable<ClusterMember> {
    const m = this.members.get(cluster_id);
    if (m) yield* [...m.values()];
  }

  private checkRevision(cluster_id: string, expected: number | null): void {
    const found = this.clusters.get(cluster_id)?.revision ?? null;
    if (found !== expected) {
      throw new DedupConflictError(`cluster ${cluster_id}: revision ${found}, expected ${expected}`);
    }
  }

  private putMember(member: ClusterMember): void {
    let m = this.members.get(member.cluster_id);
    if (!m) {
      m = new Map();
      this.members.set(member.cluster_id, m);
    }
    m.set(member.article_id, member);
  }

  async reviseMember(
    cluster_id: string,
    article_id: string,
    revision: ArticleRevision,
  ): Promise<"revised" | "current" | "missing"> {
    const next = revisedMember(this.members.get(cluster_id)?.get(article_id) ?? null, revision);
    if (typeof next === "string") return next;
    this.putMember(next);
    return "revised";
  }

  async createCluster(summary: ClusterSummary, member: ClusterMember): Promise<void> {
    this.checkRevision(summary.cluster_id, null);
    this.clusters.set(summary.cluster_id, summary);
    this.putMember(member);
  }

  async joinCluster(
    summary: ClusterSummary,
    expectedRevision: number,
    member: ClusterMember,
  ): Promise<boolean> {
    if (this.members.get(member.cluster_id)?.has(member.article_id)) return false;
    this.checkRevision(summary.cluster_id, expectedRevision);
    this.clusters.set(summary.cluster_id, summary);
    this.putMember(member);
    return true;
  }

  async retireCluster(
    loser: ClusterSummary,
    loserExpectedRevision: number,
    winner: ClusterSummary,
    winnerExpectedRevision: number,
  ): Promise<void> {
    this.checkRevision(loser.cluster_id, loserExpectedRevision);
    this.checkRevision(winner.cluster_id, winnerExpectedRevision);
    this.clusters.set(loser.cluster_id, loser);
    this.clusters.set(winner.cluster_id, winner);
  }

  async moveMember(member: ClusterMember, fromCluster: string): Promise<void> {
    this.putMember(member);
    const from = this.members.get(fromCluster);
    from?.delete(member.article_id);
    if (from?.size === 0) this.members.delete(fromCluster);
  }

  async addOutlets(cluster_id: string, sightings: readonly OutletSighting[]): Promise<OutletTally> {
    let m = this.outlets.get(cluster_id);
    if (!m) {
      m = new Map();
      this.outlets.set(cluster_id, m);
    }
    for (const o of sightings) {
      const prior = m.get(o.source_id);
      if (prior === undefined || Date.parse(o.carried_at) < Date.parse(prior.carried_at))
        m.set(o.source_id, o);
    }
    return { count: m.size, tenthAt: tenthCarriedAt([...m.values()].map((o) => o.carried_at)) };
  }

  async keepOutlets(cluster_id: string, sightings: readonly OutletSighting[]): Promise<void> {
    await this.addOutlets(cluster_id, sightings);
  }

  async *listOutlets(cluster_id: string): AsyncIterable<OutletSighting> {
    const m = this.outlets.get(cluster_id);
    if (m) yield* [...m.values()];
  }

  async removeOutlets(cluster_id: string, source_ids: readonly string[]): Promise<void> {
    const m = this.outlets.get(cluster_id);
    for (const id of source_ids) m?.delete(id);
    if (m?.size === 0) this.outlets.delete(cluster_id);
  }

  /** Every article id with its current (live) cluster id, in insertion order. */
  *assignments(): Iterable<{ article_id: string; cluster_id: string }> {
    for (const a of this.articles.values()) {
      let id = this.stories.get(a.article_id)?.cluster_id ?? a.cluster_id;
      for (let s = this.clusters.get(id); s?.merged_into; s = this.clusters.get(id)) id = s.merged_into;
      yield { article_id: a.article_id, cluster_id: id };
    }
  }

  /** All summaries (live and retired) and members, for inspection and tests. */
  snapshot(): { summaries: ClusterSummary[]; members: ClusterMember[] } {
    return {
      summaries: [...this.clusters.values()],
      members: [...this.members.values()].flatMap((m) => [...m.values()]),
    };
  }

  get articleCount(): number {
    return this.articles.size;
  }
}
