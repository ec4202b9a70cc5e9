/**
 * Story clustering: the union of confirmed near-duplicate pairs, kept as connected components in a
 * store. The algorithm is written against DedupStore (dedup-store.ts) so the in-memory store
 * (memory-dedup-store.ts) and the DynamoDB adapter run the same code; the summary arithmetic is in
 * cluster-summary.ts. Each step is an explicit, idempotent state transition a table adapter makes
 * with conditional writes:
 *
 *   1. a store that keeps story states (StoryStates: the one-machine stores): done already → return
 *      its (resolved) cluster. Without them a redelivery re-runs the steps, each idempotent
 *   2. LSH buckets → candidate ids (strangers turned away by their digests, candidate-digest.ts)
 *      → candidate items → confirm each pair                                          (confirm.ts)
 *   3. claim the article: its fingerprint item, written once, names the cluster it goes to (the
 *      smallest confirmed one, resolved, or a new id derived from its own); a later or concurrent
 *      delivery follows the stored claim. Found that cluster (member, then summary) or join it, or
 *      the live cluster it was merged into (member + summary, atomic)
 *   4. add the article to its LSH buckets, then query them again (concurrent copies)
 *   5. merge every confirmed cluster into the smallest id: union outlets, retire the loser with
 *      merged_into and fold its counts into the winner (atomic), move its members (each marked
 *      moved_from) and pointers, then delete the loser's outlet items (a retired story counts nowhere)
 *   6. with story states: point the article's state at its live cluster and mark it done (checked
 *      afterwards: a merge that raced the write is followed)
 *
 * Confirmation is a symmetric function of two fingerprints and candidates come from equal bands, so
 * the confirmed pairs, and hence the partition, do not depend on arrival order. Ids do: a cluster is
 * named after the article that created it and keeps that id as it grows; a merge keeps the smaller id.
 */
import type { ClusterSummary } from "../records";
import { candidateDigest, digestsMayMatch } from "./candidate-digest";
import { memberOf, newSummary, sightingOf, withArticle, withCluster } from "./cluster-summary";
import { compareFingerprints } from "./confirm";
import { type DedupArticle, DedupConflictError, type DedupStore, type IndexedArticle } from "./dedup-store";
import { type Fingerprint, type FingerprintView, viewFingerprint } from "./fingerprint";
import { FingerprintViews } from "./fingerprint-views";
import { bandKeys } from "./lsh";
import { fingerprintParams, type MatchParams, matchParams } from "./params";

export interface AddOptions {
  /** Clock for updated_at (ISO instant). */
  now?: () => string;
  params?: MatchParams;
  /** Decoded fingerprints to reuse across calls (one per run over an in-memory store); by default
   * each call decodes its own. */
  views?: FingerprintViews;
}

/** Cluster id a new cluster founded by this article gets (deterministic). */
export function clusterIdFor(article_id: string): string {
  return `c-${article_id}`;
}

/** Lede bands are numbered from here, apart from the body bands. */
const LEDE_FIRST_BAND = 1000;

/** Whether an article's fingerprint is long enough to be indexed and merged on similarity. */
function isIndexable(fp: Fingerprint | FingerprintView, params: MatchParams = matchParams): boolean {
  return fp.shingles >= params.minShingles;
}

/** Band keys of a fingerprint or its view (none for texts too short to merge). */
export function articleBandKeys(
  fp: Fingerprint | FingerprintView,
  params: MatchParams = matchParams,
): number[] {
  if (!isIndexable(fp, params)) return [];
  const v = "paramsKey" in fp ? fp : viewFingerprint(fp);
  return [
    ...bandKeys(v.sig, params.bands, params.rows),
    ...bandKeys(v.lede, params.ledeBands, params.ledeRows, LEDE_FIRST_BAND),
  ];
}

/** Follows merged_into to the chain's last cluster: its id, and its summary as read there (null when
 * that story is gone: expired, its hot window closed). */
async function chainEnd(
  store: DedupStore,
  cluster_id: string,
): Promise<{ id: string; summary: ClusterSummary | null }> {
  let id = cluster_id;
  for (let hops = 0; hops < 1000; hops++) {
    const s = await store.getCluster(id);
    if (!s?.merged_into) return { id, summary: s };
    id = s.merged_into;
  }
  throw new Error(`merged_into chain too long from ${cluster_id}`);
}

/** Follows merged_into to the live cluster id. */
async function resolveCluster(store: DedupStore, cluster_id: string): Promise<string> {
  return (await chainEnd(store, cluster_id)).id;
}

/** The live summary at the end of the merged_into chain from `cluster_id`, read once on the way; null
 * when the chain ends in a story that is gone, which is then as if it never was. */
async function liveSummary(store: DedupStore, cluster_id: string): Promise<ClusterSummary | null> {
  return (await chainEnd(store, cluster_id)).summary;
}

/** Orders articles for the canonical choice: earliest published_at first (unknown last), then id. */

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/**
 * Points the article's state at `cluster_id`, then checks that the cluster is still live: a merge
 * that retired it meanwhile may have repointed the article before this write landed, so the write is
 * repeated with the live id until it holds. `done` marks the article finished.
 */
async function pointArticle(
  store: DedupStore,
  article_id: string,
  cluster_id: string,
  done: boolean,
): Promise<string> {
  const stories = store.storyStates;
  // A store without story states has nothing to point: the claim and merged_into lead to the story.
  if (!stories) return cluster_id;
  let id = cluster_id;
  for (;;) {
    if (done) await stories.finishArticle(article_id, id);
    else await stories.setArticleCluster(article_id, id);
    const live = await resolveCluster(store, id);
    if (live === id) return id;
    id = live;
  }
}

/**
 * Folds cluster `loser` into `winner`: outlets, then the summaries (atomic), then members and their
 * article pointers, then the loser's outlet items are deleted. Safe to call again: an already retired
 * loser only has its leftover members moved and outlet items deleted.
 */
async function mergeClusters(store: DedupStore, loser: string, winner: string, now: string): Promise<void> {
  const l = await store.getCluster(loser);
  if (!l) return;
  if (l.merged_into && l.merged_into !== winner) return;
  if (!l.merged_into) {
    // While the loser is live a new member bumps its revision, so the retire below fails (and the
    // caller retries) unless these lists are complete.
    const members = await collect(store.listMembers(loser));
    const outlets = await collect(store.listOutlets(loser));
    const w = await store.getCluster(winner);
    // Expired since the union looked (it is no longer a root): the caller's retry resolves afresh.
    if (!w) throw new DedupConflictError(`merge into missing cluster ${winner}`);
    // The winner was itself merged away meanwhile: its counts would be lost; resolve again.
    if (w.merged_into)
      throw new DedupConflictError(`merge target ${winner} was retired into ${w.merged_into}`);
    const tally = await store.addOutlets(winner, outlets);
    // An article counted in both (two deliveries of it ran at once) is counted once in the union.
    let shared = 0;
    for (const m of members) {
      if (await store.getMember(winner, m.article_id)) shared++;
    }
    const grown = withCluster(w, l, tally, now);
    const retired: ClusterSummary = { ...l, merged_into: winner, revision: l.revision + 1, updated_at: now };
    await store.retireCluster(
      retired,
      l.revision,
      { ...grown, article_count: grown.article_count - shared },
      w.revision,
    );
  }
  // Listed again now that the loser is retired: another merge may have moved members into it after
  // the list above (a move does not change the revision); nothing arrives once it is retired.
  const moved = await collect(store.listMembers(loser));
  for (const m of moved) {
    await store.moveMember({ ...m, cluster_id: winner, moved_from: loser }, loser);
    await store.storyStates?.setArticleCluster(m.article_id, winner);
  }
  // Last, so that a crash before this leaves the sightings for the retry's addOutlets (which keeps
  // the earliest time: repeating it changes nothing).
  const outlets = await collect(store.listOutlets(loser));
  await store.removeOutlets(
    loser,
    outlets.map((o) => o.source_id),
  );
  // The winner may have been retired while the members moved in: members that arrived after its own
  // merge listed them move on, and pointers written after that merge repointed them are set again.
  const w = await store.getCluster(winner);
  if (w?.merged_into) {
    await mergeClusters(store, winner, w.merged_into, now);
    if (store.storyStates)
      for (const m of moved) await pointArticle(store, m.article_id, w.merged_into, false);
  }
}

/** What confirmedClusters looks at, and what it carries between the two looks of one addArticle. */
interface Look {
  readonly store: DedupStore;
  readonly article: DedupArticle;
  /** The article's fingerprint, decoded once for both looks. */
  readonly view: FingerprintView;
  /** Where candidates' fingerprints are decoded. */
  readonly views: FingerprintViews;
  /** The article's candidate digest (candidate-digest.ts). */
  readonly digest: Uint8Array;
  /** The article's band keys. */
  readonly keys: readonly number[];
  readonly params: MatchParams;
  /** Candidates judged already (fingerprints never change, so neither does the verdict); every id
   * judged is added. */
  readonly judged: Set<string>;
  /** Strongly consistent bucket reads. */
  readonly consistent: boolean;
  /** Receives the keys whose bucket is full (hot). */
  readonly full: Set<number>;
}

/** Clusters of the indexed articles under the keys that are confirmed copies of the article. */
async function confirmedClusters({
  store,
  article,
  view,
  views,
  digest,
  keys,
  params,
  judged: skip,
  consistent,
  full,
}: Look): Promise<{ clusters: Set<string>; similarity: number }> {
  const clusters = new Set<string>();
  let similarity = 0;
  if (keys.length === 0) return { clusters, similarity };
  const hits = await store.queryBuckets(keys, params.maxBucketCandidates, { consistent });
  for (const k of hits.full) full.add(k);
  const ids = hits.ids.filter((id) => {
    if (id === article.article_id || skip.has(id)) return false;
    const theirs = hits.digests.get(id);
    if (!theirs || digestsMayMatch(digest, theirs, view.sig.length, params)) return true;
    skip.add(id); // a stranger sharing a band by chance: turned away without reading its fingerprint
    return false;
  });
  const candidates = (await store.getArticles(ids)).sort((a, b) => (a.article_id < b.article_id ? -1 : 1));
  // Each claimed cluster's live id, resolved once (undefined: its story expired).
  const live = new Map<string, string | undefined>();
  for (const c of candidates) {
    skip.add(c.article_id);
    if (clusters.has(live.get(c.cluster_id) ?? "")) continue; // joined through another member: same component
    // Compared before its story is looked up: most candidates are no copy, and the look-up is two reads
    // or more (a merge chain). Looked up first, the 8th day of the demo web cost 16,075 Clusters reads
    // for 61 articles, and the crawl's time grew with the days (bench --only days).
    const r = compareFingerprints(view, views.of(c.fingerprint), params, fingerprintParams.sketchSize);
    if (!r.match) continue;
    if (!live.has(c.cluster_id)) live.set(c.cluster_id, (await liveSummary(store, c.cluster_id))?.cluster_id);
    // A copy whose story expired is absent: the article founds or joins another as if it never was.
    const cid = live.get(c.cluster_id);
    if (cid === undefined || clusters.has(cid)) continue;
    clusters.add(cid);
    similarity = Math.max(similarity, r.jaccard);
  }
  return { clusters, similarity };
}

/** Merge rounds before giving up and letting the caller retry (each round resolves ids afresh). */
const MAX_UNION_ROUNDS = 10;

/**
 * Puts the article in the cluster its claim chose, or in the live cluster that one was merged into;
 * founds it when the claim was to found one. Returns the cluster ids on the way (claimed first, live
 * last), or null when the claim leads to a story that is gone (expired): the caller claims again. The
 * article ends up a member of one cluster only, whichever deliveries run: they all follow one claim, and
 * a member is only ever moved forward along that chain.
 */
async function joinClaimed(
  store: DedupStore,
  article: DedupArticle,
  claimed: IndexedArticle,
  params: MatchParams,
  now: string,
): Promise<string[] | null> {
  const chain = [claimed.cluster_id];
  let live = await store.getCluster(claimed.cluster_id);
  const member = (cid: string) => memberOf(cid, article, claimed.similarity);
  const founder = claimed.cluster_id === clusterIdFor(article.article_id);
  if (!live) {
    // Another's story is missing only once it expired (it existed before its founder filed itself, where
    // this claim found it). A founder's is created here: again if a first attempt died first, or anew
    // if its story expired (the id names its founder, so it comes back).
    if (!founder) return null;
    await store.keepOutlets(claimed.cluster_id, [sightingOf(article)]);
    await store.createCluster(newSummary(claimed.cluster_id, article, now), member(claimed.cluster_id));
    return chain;
  }
  while (live.merged_into) {
    const next = await store.getCluster(live.merged_into);
    if (!next) return null;
    chain.push(next.cluster_id);
    live = next;
  }
  // In order along the chain: a member moves forward only, so one seen nowhere was never added, or
  // was added and has expired since (archived: the summary counts it). A founder's summary is written
  // after its member, and a joiner is filed in the buckets only after its join: either way, counted.
  for (const cid of chain) if (await store.getMember(cid, article.article_id)) return chain;
  // Filed under the claim's own fingerprint (a revision's message carries another text).
  if (founder || (await store.isFiled(claimed, articleBandKeys(claimed.fingerprint, params)))) return chain;
  const outlets = await store.addOutlets(live.cluster_id, [sightingOf(article)]);
  // Revision-checked: if the cluster was retired or grew since it was read, this is a conflict.
  await store.joinCluster(withArticle(live, article, outlets, now), live.revision, member(live.cluster_id));
  return chain;
}

/**
 * Adds one article and returns its cluster and the ids this call retired (merged into it).
 * Idempotent: adding an article that is already in the store changes nothing.
 *
 * Concurrency: the article joins (or founds) a cluster before it is filed in the LSH buckets, and
 * looks for candidates again after filing itself. Of two copies processed at once, at least the one
 * that files itself second sees the other, and can resolve the other's cluster, so every confirmed
 * pair is unioned by at least one side whatever the interleaving. Deliveries of one article follow
 * the first claim (claimArticle), so they never count it in two clusters. Lost races surface as
 * DedupConflictError from the revision-checked writes; the caller re-runs addArticle.
 */
export async function addArticle(
  store: DedupStore,
  article: DedupArticle,
  options: AddOptions = {},
): Promise<{ cluster_id: string; merged: string[] }> {
  const params = options.params ?? matchParams;
  const nowFn = options.now ?? (() => new Date().toISOString());
  const state = (await store.storyStates?.getStory(article.article_id)) ?? null;
  if (state?.done) return { cluster_id: await resolveCluster(store, state.cluster_id), merged: [] };

  // 1. candidates already indexed, confirmed
  const views = options.views ?? new FingerprintViews();
  const view = views.of(article.fingerprint);
  const keys = articleBandKeys(view, params);
  // Filed with the article's bucket entries, and compared with the entries it finds there.
  const digest = candidateDigest(view);
  const judged = new Set<string>();
  // Eventually consistent is enough here: the strongly consistent look in step 3 catches the rest.
  const hot = new Set<number>();
  const look = { store, article, view, views, digest, keys, params, judged };
  const first = await confirmedClusters({ ...look, consistent: false, full: hot });

  // 2. claim the article (its fingerprint item, written once) for the smallest confirmed cluster or
  //    a new one; then join or found what the claim says, before becoming visible in buckets
  const choice = [...first.clusters].sort()[0];
  const claimed = await store.claimArticle({
    ...article,
    cluster_id: choice ?? clusterIdFor(article.article_id),
    similarity: choice ? first.similarity : 1,
  });
  const now = nowFn();
  let chain = await joinClaimed(store, article, claimed, params, now);
  if (!chain) {
    // The claimed story expired: the article founds its own (step 4 joins it to any live copy). A
    // founder's claim, so a redelivery never mistakes an earlier join's bucket entries for this one's.
    const own = clusterIdFor(article.article_id);
    const again = await store.reclaimArticle(
      { ...article, cluster_id: own, similarity: 1 },
      claimed.cluster_id,
    );
    chain = await joinClaimed(store, article, again, params, now);
    if (!chain) throw new DedupConflictError(`claim of ${article.article_id} moved to ${again.cluster_id}`);
  }

  // 3. file in the buckets, then look again: copies indexed meanwhile are found now
  // Hot buckets are read (capped) but no longer grow: real copies share many other bands.
  await store.addToBuckets(
    keys.filter((k) => !hot.has(k)),
    article.article_id,
    digest,
  );
  const second = await confirmedClusters({ ...look, consistent: true, full: new Set() });

  // 4. union everything confirmed into the smallest live id. Ids are resolved afresh each round: a
  //    cluster seen in step 1 may have been merged elsewhere since, and its new root must join too.
  let ids = [...first.clusters, ...second.clusters, ...chain];
  const touched = new Set(ids);
  const merged: string[] = [];
  for (let round = 0; ; round++) {
    let roots = [
      ...new Set(await Promise.all([...new Set(ids)].map((id) => resolveCluster(store, id)))),
    ].sort();
    // A candidate whose first attempt crashed before founding its cluster left only a claim of an id
    // that was never created: nothing to merge there.
    if (roots.length > 1) {
      const exists = await Promise.all(roots.map(async (id) => (await store.getCluster(id)) !== null));
      roots = roots.filter((_, i) => exists[i]);
    }
    const winner = roots[0] ?? chain[chain.length - 1]!;
    if (roots.length <= 1) {
      // A merge interrupted after retiring its loser left members behind: move them now.
      for (const id of touched) {
        const s = id === winner ? null : await store.getCluster(id);
        if (s?.merged_into) await mergeClusters(store, id, s.merged_into, now);
      }
      return { cluster_id: await pointArticle(store, article.article_id, winner, true), merged };
    }
    if (round >= MAX_UNION_ROUNDS) throw new DedupConflictError(`union of ${roots.join(", ")} kept moving`);
    for (const loser of roots.slice(1)) {
      await mergeClusters(store, loser, winner, now);
      merged.push(loser);
    }
    ids = roots;
  }
}
